import { z } from 'zod';
import { parseProxyTrust } from './http/clientAddress';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = (max: number) => z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(max, `must be at most ${max}`);

/**
 * Every setting, one environment variable each. The comment above a field (or its `.describe()`) is its
 * meaning in the configuration table of server/README.md, which `npm run docs:config` regenerates.
 */
export const EnvSchema = z.object({
  /** Port the one process listens on (API, Socket.IO, web app). */
  PORT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0–65535').max(65535, 'must be 0–65535').default(5000),
  /** Address the process listens on. */
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Use this MongoDB (replica set, Atlas…) instead of the embedded one. */
  MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://').optional(),
  /** Proves who creates the first admin, then a bearer credential with the admin role for automation and recovery (at least 12 characters); default: random per run, printed at start. Never in the web bundle, never logged when set. */
  ADMIN_TOKEN: z.string().min(12, 'must be at least 12 characters').optional(),
  /** Keys the hashes stored outside the process (Redis rate-limit keys; default: derived from the admin token) and seals embedding secrets at rest (default: a key made once and kept in the database). Same on every process; changing it makes sealed secrets unreadable until rotated. */
  SERVER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Turns the admin token off as a bearer credential (people sign in; first-admin setup is then impossible). */
  ADMIN_TOKEN_DISABLED: bool.default(false),
  /** The address users reach: OAuth redirect, printed links, the OpenAPI document's servers (and so the console's API samples); default: http://localhost:PORT. */
  PUBLIC_URL: z.url({ error: 'must be an absolute URL such as https://dash.example.com' }).optional(),
  /** SMTP server for invitation and reset emails (smtp://user:pass@host:587, smtps://… for TLS); unset: links are shown to copy. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  /** The From of those emails, e.g. "LiveDash <dash@example.com>" (required with SMTP_URL). */
  MAIL_FROM: z.string().min(3).optional(),
  /**
   * Where the embedded database keeps its data between restarts (relative to the working folder):
   * mongod's own files, or the offline engine's snapshot. `:memory:` keeps nothing (tests, throwaway
   * demos). Not used with MONGODB_URI. One server at a time per folder.
   */
  DATA_DIR: z.string().min(1).default('./data'),
  /** Seed the demo into an empty database; default: true with the embedded database, false with MONGODB_URI. */
  SEED_DEMO: bool.optional(),
  /** Share Socket.IO rooms, view-cache events, revocations and rate limits across processes. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  /** Largest ingest body (413 beyond, with the limit in the message). */
  INGEST_MAX_BYTES: positiveInt(512 * 1024 * 1024).default(16 * 1024 * 1024),
  /** Most records per ingest request (400 beyond). */
  INGEST_MAX_RECORDS: positiveInt(1_000_000).default(10_000),
  /** Longest an ingest body may take to arrive once the server starts reading it: a body still trickling in then is cut with a 408. */
  INGEST_BODY_TIMEOUT_SECONDS: positiveInt(3_600).default(30),
  /** Import Data: the largest file uploaded (413 beyond, with the limit in the message). */
  IMPORT_MAX_BYTES: positiveInt(1024 * 1024 * 1024).default(50 * 1024 * 1024),
  /** Import Data: an uploaded file unused this long is deleted. */
  IMPORT_IDLE_SECONDS: positiveInt(7 * 24 * 3600).default(30 * 60),
  /** Most records one public view returns (truncated: true beyond). */
  VIEW_MAX_RECORDS: positiveInt(10_000_000).default(100_000),
  /** Signed embedding: the furthest ahead a token's `exp` may be (a token that would live longer is refused). */
  EMBED_MAX_TTL_SECONDS: positiveInt(86_400).default(86_400),
  /** Largest JSON body of an admin call (dashboards, data sources, integrations). */
  ADMIN_JSON_MAX_BYTES: positiveInt(64 * 1024 * 1024).default(1024 * 1024),
  /**
   * The reverse proxies whose X-Forwarded-For / -Proto / -Host count: their addresses, comma-separated
   * — IPs, CIDRs, or `loopback`, `linklocal`, `uniquelocal` (e.g. `loopback` for nginx on the same
   * machine, `10.0.0.5,10.0.0.6`) — read only on connections from them. `true` trusts any peer (the
   * server warns at start: a client reaching a process directly could set its own address);
   * `false`: no proxy.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => {
      try {
        return parseProxyTrust(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `must be false, true, or the proxies' addresses (comma-separated IPs, CIDRs, loopback, linklocal, uniquelocal): ${(e as Error).message}` });
        return z.NEVER;
      }
    }),
  /** With TRUST_PROXY=true only: how many proxies append to X-Forwarded-For; the client is the entry the outermost of them appended (a list of the proxies' addresses needs no count). */
  TRUST_PROXY_HOPS: positiveInt(10).default(1),
  /** Failures of one bearer credential per client address, and wrong passwords or distinct wrong credentials per address, per window. */
  RATE_LIMIT_AUTH_FAILURES: positiveInt(1_000_000).default(20),
  /** Window of RATE_LIMIT_AUTH_FAILURES and RATE_LIMIT_SIGN_IN_ACCOUNT. */
  RATE_LIMIT_AUTH_WINDOW_SECONDS: positiveInt(86_400).default(900),
  /** Failed sign-ins per (account, client address) per RATE_LIMIT_AUTH_WINDOW_SECONDS; per address RATE_LIMIT_AUTH_FAILURES counts them too. */
  RATE_LIMIT_SIGN_IN_ACCOUNT: positiveInt(1_000_000).default(10),
  /** Longest wait a sign-in gets while its account has failed from anywhere (never more than a minute). */
  RATE_LIMIT_SIGN_IN_SLOWDOWN_SECONDS: positiveInt(60).default(60),
  /**
   * Ingest requests per credential per RATE_LIMIT_INGEST_WINDOW_SECONDS: 100 a second sustained, and
   * bursts of up to 1,000 (shippers that flush together, a backlog sent after an outage).
   */
  RATE_LIMIT_INGEST: positiveInt(1_000_000).default(1_000),
  /** Ingest requests per data source per RATE_LIMIT_INGEST_WINDOW_SECONDS, any credential. */
  RATE_LIMIT_INGEST_SOURCE: positiveInt(1_000_000).default(1_000),
  /** Window of RATE_LIMIT_INGEST and RATE_LIMIT_INGEST_SOURCE. */
  RATE_LIMIT_INGEST_WINDOW_SECONDS: positiveInt(86_400).default(10),
  /** OAuth config and callback requests per client address per window. */
  RATE_LIMIT_OAUTH: positiveInt(1_000_000).default(30),
  /** Window of RATE_LIMIT_OAUTH. */
  RATE_LIMIT_OAUTH_WINDOW_SECONDS: positiveInt(86_400).default(600),
  /** Test messages of alerts ("Send test") per person per RATE_LIMIT_ALERT_TESTS_WINDOW_SECONDS: each goes to every channel of the rule. */
  RATE_LIMIT_ALERT_TESTS: positiveInt(1_000_000).default(5),
  /** Window of RATE_LIMIT_ALERT_TESTS. */
  RATE_LIMIT_ALERT_TESTS_WINDOW_SECONDS: positiveInt(86_400).default(600),
  /** Memory the public view cache may hold (records, bodies, compressed forms); least recently viewed go first. */
  VIEW_CACHE_MAX_BYTES: positiveInt(64 * 1024 * 1024 * 1024).default(256 * 1024 * 1024),
  /** Days the activity log keeps an entry (a TTL index removes older ones). */
  ACTIVITY_RETENTION_DAYS: positiveInt(3650).default(90),
  /** Activity entries (and open ingest summaries) held in memory before being written; past it they are dropped, counted and logged. */
  ACTIVITY_MAX_QUEUED: positiveInt(10_000_000).default(10_000),
  /** Retention: how often records past a source's maxAgeSeconds are swept. */
  RETENTION_SWEEP_MS: positiveInt(3_600_000).default(30_000),
  /** Retention: the most records one sweep removes (the rest go on the next one). */
  RETENTION_SWEEP_MAX_RECORDS: positiveInt(10_000_000).default(10_000),
  /**
   * How often each process checks its signed-in sockets against the database again (ended sessions,
   * removed people, changed roles and dashboard limits whose news Redis lost); default: the session cache's lifetime.
   */
  SOCKET_RECHECK_MS: positiveInt(3_600_000).default(30_000),
  /** Dashboard versions: how many days a save's version is kept (the last 50 of each dashboard are kept whatever their age). */
  DASHBOARD_VERSIONS_DAYS: positiveInt(36_500).default(365),
  /** Records an append-only source keeps when it sets no maxRecords (default: 100,000; 5,000 on the offline engine). */
  APPEND_ONLY_MAX_RECORDS: positiveInt(100_000_000).optional(),
  /** Offline engine: the records collection's size past which the console warns that a write nears a second. */
  OFFLINE_ENGINE_WARN_RECORDS: positiveInt(100_000_000).default(2_500),
  /** Force an embedded engine (mongod or jongodb); auto tries mongod, then the offline engine. */
  DB_ENGINE: z.enum(['auto', 'mongod', 'jongodb'], { error: 'must be auto, mongod or jongodb' }).default('auto'),
  /** Folder of the built web app (tests may build into their own). */
  WEB_DIST: z.string().min(1).default('dist/web'),
  /** Integrations (every provider, despite the name): how often the auto-sync scheduler looks for due syncs (0 = off). */
  ZENDESK_SCHEDULER_TICK_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(3_600_000).default(5_000),
  /** Integrations (every provider, despite the name): how long one process holds an integration's sync lease (renewed a third of the way). */
  ZENDESK_LEASE_MS: z.coerce.number({ error: 'must be a number' }).int().min(1_000).max(3_600_000).default(60_000),
  /** Integrations (every provider, despite the name): the longest Retry-After a sync waits for. */
  ZENDESK_MAX_RETRY_AFTER_SECONDS: positiveInt(3_600).default(120),
  /** Integrations pulling from an API or a database: the longest one sync run may take; past it the run stops, keeping what it stored (the next sync goes on from there). */
  INTEGRATION_RUN_MAX_SECONDS: positiveInt(86_400).default(3_600),
  /** Integrations pulling from an API or a database: most pages (batches) one run reads, whatever an integration's maxPages says. */
  INTEGRATION_MAX_PAGES: positiveInt(10_000_000).default(100_000),
  /** Integrations pulling from an API or a database: the largest answer (batch) held at once, in bytes; a larger one fails the run, naming the page. */
  INTEGRATION_PAGE_MAX_BYTES: positiveInt(1024 * 1024 * 1024).default(16 * 1024 * 1024),
  /** Integrations pulling from a database: rows read (and written) per batch. */
  INTEGRATION_BATCH_RECORDS: positiveInt(100_000).default(1_000),
  /** Integrations pulling from an API or a database: the longest one request (statement) may take, in ms. */
  INTEGRATION_REQUEST_TIMEOUT_MS: positiveInt(3_600_000).default(30_000),
  /**
   * Zendesk hosts (host:port, comma-separated) that may be reached over plain http or at an
   * internal address — the local simulator and tests. Every other Host URL must be https:// to a
   * public address (as OUTBOUND_ALLOWED_HOSTS, which Zendesk honours too).
   */
  ZENDESK_HTTP_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+:\d{1,5}$|^\[[0-9a-f:]+\]:\d{1,5}$/, 'must be a comma-separated list of host:port, e.g. 127.0.0.1:4010'))),
  /**
   * Outbound calls (alert channels, integrations): host:port pairs (comma-separated) that may be
   * reached over plain http or at a loopback, private, link-local or otherwise non-public address
   * (in any spelling) — a local receiver, tests. Every other address must be https:// to a public
   * one. The base list: admins add to it at run time under Settings › Outbound hosts (kept in the
   * database, applied at once).
   */
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+:\d{1,5}$|^\[[0-9a-f:]+\]:\d{1,5}$/, 'must be a comma-separated list of host:port, e.g. 127.0.0.1:4010'))),
  /** Alerts: how long a process holds the rules it evaluates before another may take them over (it renews them a third of the way). */
  ALERT_LEASE_MS: z.coerce.number({ error: 'must be a number' }).int().min(500).max(3_600_000).default(15_000),
  /**
   * Alerts: most records of one data source held in memory to evaluate its rules as each write
   * lands. Past it the source's rules are not evaluated (their state stays) and the Alerts screen
   * says "too many records to evaluate live"; they resume once the source holds fewer.
   */
  ALERT_MAX_RECORDS: positiveInt(100_000_000).default(100_000),
  /** Alerts: most rules on one data source (each is counted and kept current on every write to it); past it, creating or moving one answers 409. */
  ALERT_MAX_RULES_PER_SOURCE: positiveInt(10_000).default(50),
  /** Alerts: most rules of the whole team; past it, creating one answers 409. */
  ALERT_MAX_RULES: positiveInt(100_000).default(500),
  /** Reports: days a report's files are kept and their signed links answer (then both go). */
  REPORT_FILES_DAYS: positiveInt(365).default(7),
  /** Reports: how often each process looks for reports that are due, or asked to be sent now; a run starts within this of its time. */
  REPORTS_TICK_MS: z.coerce.number({ error: 'must be a number' }).int().min(100, 'must be at least 100').max(10_000, 'must be at most 10000: runs start within this of their time').default(5_000),
  /** Lowest level logged. */
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent'], { error: 'must be debug, info, warn, error or silent' }).default('info'),
  /** text: readable lines in a terminal; json: one JSON object per line (level, time, msg, reqId, …) for a log shipper. */
  LOG_FORMAT: z.enum(['text', 'json'], { error: 'must be text or json' }).default('text'),
  /** GET /metrics on the main port answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset (and no METRICS_PORT): not served. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** A separate listener serving only /metrics (on METRICS_HOST, loopback by default); the token is asked there too when set. */
  METRICS_PORT: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be 0–65535').max(65535, 'must be 0–65535').optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** After SIGTERM/SIGINT: how long /readyz answers 503 while the process still serves, so a load balancer stops sending. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number({ error: 'must be a number' }).min(0, 'must be 0 or more').max(300, 'must be at most 300').default(3),
  /** After SIGTERM/SIGINT: the longest a stop may take; past it the process exits with status 1, naming the step that hung. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number({ error: 'must be a number' }).min(1, 'must be at least 1').max(600, 'must be at most 600').default(10),
}).refine((c) => !c.SMTP_URL || c.MAIL_FROM, { path: ['MAIL_FROM'], message: 'is required with SMTP_URL, e.g. "LiveDash <dash@example.com>"' });

export type Config = z.infer<typeof EnvSchema>;

/** Raised when an environment variable is malformed; the message names the variable. */
export class ConfigError extends Error {}

/** Reads and validates the configuration from environment variables, in one place. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
