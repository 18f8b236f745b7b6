import crypto from 'node:crypto';
import type Router from '@koa/router';
import { type AppContext, startScheduler } from '../core';
import { reportOutbox } from './deliver';
import { removeFiles } from './files';
import { createReportModels, type ReportDoc } from './models';
import { runReport } from './run';
import { reportsRouter } from './routes';
import { reportsHandle, type ReportsRuntime } from './runtime';
import { nextRunAfter } from './schedule';
import { removeReports } from './service';

export { reportsHandle } from './runtime';
export type { ReportsRuntime } from './runtime';

export interface Reports {
  router: Router;
  runtime: ReportsRuntime;
  /** The process listens at `url`: links and buttons point there unless PUBLIC_URL says otherwise. */
  listening(url: string): void;
  /** Stops looking for due reports, waits for the sends under way and hands back what it claimed. */
  close(): Promise<void>;
}

/** Files past their time are looked for at most this often. */
const SWEEP_MS = 60_000;

/**
 * Reports: a dashboard tab drawn on the server (server/reports/render) on a schedule or on
 * request, its files kept and served at signed links, its messages delivered through the core
 * outbox to email, Slack, Teams and webhooks. Schedules are claimed through the core scheduler, so
 * each run happens once whichever process claims it; a report is drawn under its lease.
 */
export async function startReports(app: AppContext): Promise<Reports> {
  const models = await createReportModels(app.conn);
  const base: Omit<ReportsRuntime, 'outbox'> = {
    app, models, owner: `${process.pid}-${crypto.randomUUID()}`, schedules: null, running: new Set<string>(),
    baseUrl: app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`, lastSweep: 0,
  };
  // The outbox sends with the runtime it belongs to (its links follow `baseUrl` once the process listens).
  const rt = base as ReportsRuntime;
  rt.outbox = reportOutbox(rt);
  reportsHandle.set(app, rt);

  const sweep = async () => {
    if (Date.now() - rt.lastSweep < SWEEP_MS) return;
    rt.lastSweep = Date.now();
    await removeFiles(models, { expiresAt: { $lte: new Date() } });
  };

  // A dashboard that goes takes its reports (and their files) with it.
  const off = app.events.on('dashboard.removed', ({ dashboardId }) => {
    void models.Report.find({ dashboardId })
      .lean<ReportDoc[]>()
      .then((docs) => removeReports(rt, docs.map((d) => String(d._id))))
      .catch((e: unknown) => app.log.error('reports: could not remove the reports of a removed dashboard', e));
  });

  /** Due reports and sends are looked for once links can be made: when the process listens. */
  const startSchedules = () => {
    const tickMs = app.config.REPORTS_TICK_MS;
    const scheduled = startScheduler<ReportDoc>(app.log, {
      name: 'reports',
      model: models.Report,
      dueField: 'nextRunAt',
      scheduled: { paused: false },
      next: (doc, from) => nextRunAfter(doc.schedule, doc.timezone, from),
      tickMs,
      beforeTick: sweep,
      busy: (id) => rt.running.has(id),
      async run(doc) {
        if ((await runReport(rt, doc, 'schedule')) === 'busy') app.log.info(`reports: report ${String(doc._id)} was still being drawn when its next run came; that run is skipped`);
      },
    });
    const requested = startScheduler<ReportDoc>(app.log, {
      name: 'reports (send now)',
      model: models.Report,
      dueField: 'sendRequestedAt',
      scheduled: {},
      next: () => null,
      tickMs,
      async run(doc) {
        if ((await runReport(rt, doc, 'send')) !== 'busy') return;
        // Being drawn elsewhere: asked again in a moment, so "Send now" is never lost.
        await models.Report.updateOne({ _id: doc._id, sendRequestedAt: null }, { $set: { sendRequestedAt: new Date(Date.now() + 2_000) } });
      },
    });
    // A drawing that failed, tried again (run.ts sets when); paused or not, as the run it retries.
    const retries = startScheduler<ReportDoc>(app.log, {
      name: 'reports (draw retry)',
      model: models.Report,
      dueField: 'drawRetryAt',
      scheduled: {},
      next: () => null,
      tickMs,
      busy: (id) => rt.running.has(id),
      async run(doc) {
        if ((await runReport(rt, doc, 'retry')) === 'busy') app.log.info(`reports: report ${String(doc._id)} was being drawn when its retry came; that drawing's outcome stands`);
      },
    });
    rt.schedules = { scheduled, requested, retries };
  };

  return {
    router: reportsRouter(rt),
    runtime: rt,
    listening(url) {
      if (!app.config.PUBLIC_URL) rt.baseUrl = url;
      if (rt.schedules) return;
      startSchedules();
      rt.outbox.start();
    },
    async close() {
      off();
      await rt.schedules?.scheduled.close();
      await rt.schedules?.requested.close();
      await rt.schedules?.retries.close();
      await rt.outbox.close();
      reportsHandle.clear(app);
    },
  };
}
