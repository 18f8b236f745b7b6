import { AppHandle, type AppContext, type Lease, type Outbox, type Scheduler } from '../core';
import type { ReportDeliveryDoc, ReportModels } from './models';

/** What the reports' services share: the app, the collections, this process's outbox, schedules and lease. */
export interface ReportsRuntime {
  app: AppContext;
  models: ReportModels;
  /** This process as a holder of report leases and a sender of deliveries. */
  owner: string;
  outbox: Outbox<ReportDeliveryDoc>;
  /** The schedule runs, the "Send now" requests and the retries of failed drawings (set once started). */
  schedules: { scheduled: Scheduler; requested: Scheduler; retries: Scheduler } | null;
  /** Reports this process is drawing now. */
  running: Set<string>;
  /** The address links and buttons point at: PUBLIC_URL, or this process's own once it listens. */
  baseUrl: string;
  /** When files past their time were last swept. */
  lastSweep: number;
}

/** How long a report's lease lasts unless renewed (renewed a third of the way while it is drawn). */
export const REPORT_LEASE_MS = 60_000;

/** Our hold on a report while we draw it: the core lease, in the report's `lease` fields. */
export const reportLease = (rt: ReportsRuntime): Lease => ({ model: rt.models.Report, fields: { owner: 'lease.owner', until: 'lease.until' }, ms: REPORT_LEASE_MS, owner: rt.owner });

/** This app's reports (tests read the runtime through it). */
export const reportsHandle = new AppHandle<ReportsRuntime>('reports');
