import { startApp } from './app';
import { ConfigError, loadConfig, createLogger, RedisUnreachableError, StartRefused } from './core';
import { stopOnSignals } from './operations';

/** Entry point of `npm start`: one process serving the API, Socket.IO and the web app. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    console.error(e instanceof ConfigError ? e.message : e);
    process.exit(1);
  }
  const log = createLogger(config.LOG_LEVEL, config.LOG_FORMAT);
  const app = await startApp(config, log).catch((e: unknown) => {
    // A known cause is told as its message; anything else with its stack.
    log.error('startup failed', e instanceof RedisUnreachableError || e instanceof StartRefused ? e.message : e);
    process.exit(1);
  });
  const { db } = app.ctx;
  log.info(`database: ${db.summary}`);
  if (db.mode === 'embedded-jongodb') log.info(`offline engine: ${db.reason}`);
  if (app.seeded) log.info('demo data seeded: data source "Support Tickets" and the published dashboard "Support Overview"');
  log.info(`listening on ${app.url}`);
  if (app.metricsPort !== null) log.info(`metrics: http://${config.METRICS_HOST}:${app.metricsPort}/metrics`);
  // A generated token must be shown to be usable; one the operator set is a secret and stays out of logs.
  const token = config.ADMIN_TOKEN_DISABLED
    ? 'admin token turned off: people sign in with email and password'
    : config.ADMIN_TOKEN ? 'the ADMIN_TOKEN you set proves the first admin and stays a bearer credential' : `admin token, generated for this run: ${app.ctx.adminToken}`;
  log.info(`admin console: ${app.url}/admin  (${token})`);

  stopOnSignals(app, log, { graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000, timeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000 });
  process.on('unhandledRejection', (e) => log.error('unhandled rejection', e));
}

void main();
