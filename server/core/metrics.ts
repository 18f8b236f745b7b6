import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AppHandle, type AppContext } from './context';

/**
 * The metrics of one app (its own registry: tests run several apps in one process). Every label
 * takes values from a small fixed set — a route TEMPLATE, a status, a kind — never an id, token or
 * source id, so the series stay bounded whatever the traffic. Other rooms add theirs through
 * `registry` (e.g. alert evaluation and delivery).
 */
export interface Metrics {
  registry: Registry;
  /** Every answered HTTP request (not Socket.IO's own transport). */
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  httpInFlight: Gauge;
  /** Records through the writer: accepted (stored) or rejected (by the record rules). */
  ingestRecords: Counter<'outcome'>;
  /** One group-commit flush: its duration and how many requests it answered. */
  flushDuration: Histogram;
  flushRequests: Histogram;
  /** From a write stored (its answer under way) to its delta emitted to the viewers. */
  pushLatency: Histogram;
  /** Import Data rows: read, written, rejected. */
  importRows: Counter<'outcome'>;
  /** Public views answered from memory (hit) or built / read from the database (miss). */
  viewCache: Counter<'result'>;
}

const MS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({ name: 'http_request_duration_seconds', help: 'HTTP requests by method, route template and status', labelNames: ['method', 'route', 'status'], buckets: MS_BUCKETS, registers }),
    httpInFlight: new Gauge({ name: 'livedash_http_requests_in_flight', help: 'HTTP requests being handled now', registers }),
    ingestRecords: new Counter({ name: 'livedash_ingest_records_total', help: 'Records written through the group-commit writer, by outcome (accepted, rejected)', labelNames: ['outcome'], registers }),
    flushDuration: new Histogram({ name: 'livedash_flush_duration_seconds', help: 'Duration of one group-commit flush of a data source', buckets: MS_BUCKETS, registers }),
    flushRequests: new Histogram({ name: 'livedash_flush_requests', help: 'Write requests answered by one group-commit flush', buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256], registers }),
    pushLatency: new Histogram({ name: 'livedash_push_latency_seconds', help: 'From a write stored to its change emitted to the viewers', buckets: MS_BUCKETS, registers }),
    importRows: new Counter({ name: 'livedash_import_rows_total', help: 'Import Data rows by outcome (read, written, rejected)', labelNames: ['outcome'], registers }),
    viewCache: new Counter({ name: 'livedash_view_cache_requests_total', help: 'Public views answered from the view cache (hit) or built or read from the database (miss)', labelNames: ['result'], registers }),
  };
}

const metrics = new AppHandle<Metrics>('the metrics', () => createMetrics());

/** The app's metrics (made on first use: a service never checks whether metrics are on). */
export const metricsOf = (app: AppContext): Metrics => metrics.of(app);

/** Adds the process and Node.js metrics (CPU, memory, event-loop lag, handles, GC) to the app's registry. */
export function collectProcessMetrics(metrics: Metrics): void {
  collectDefaultMetrics({ register: metrics.registry });
}

/** Seconds since a `performance.now()` reading. */
export const secondsSince = (start: number) => (performance.now() - start) / 1000;
