import { Counter, Gauge } from 'prom-client';
import { AppHandle } from '../context';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import { redisAddress, type RedisClient } from './redis';

/** Longest a command on the request path waits for Redis: past it the caller takes its fallback for this once. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/**
 * A command still unanswered this long means Redis is down (hung, or the network lost). Longer
 * than the wait above: a busy event loop makes an answer late without Redis being down, and such
 * an answer arrives within a turn or two — only a Redis that answers nothing stays silent this long.
 */
export const REDIS_SILENT_MS = 3_000;
/** While Redis is down, how often it is asked again (a PING) in the background. */
export const REDIS_PROBE_MS = 1_000;

/** Raised at once, without asking Redis, while Redis is down: the caller takes its fallback. */
export class RedisDown extends Error {
  constructor() {
    super('Redis is down: the fallback serves');
  }
}

/**
 * A circuit breaker in front of Redis, so that no request waits on a dead one. A command waits at
 * most REDIS_COMMAND_TIMEOUT_MS (then its caller takes the fallback); Redis is down from the moment
 * any watched connection reports an error or a command stays silent REDIS_SILENT_MS. From then on
 * `run` fails at once and each user takes its fallback — the rate limits count in this process's
 * memory, rooms and deltas stay on this process, revocations are not relayed (sockets are checked
 * against the database again on return) — while a PING every second (REDIS_PROBE_MS) asks whether
 * it is back. It is back when every watched connection is ready and a PING answers; then
 * the `back` listeners run (the view cache's relay tells viewers to resync, as before).
 *
 * One warning per outage and one line when it ends; `livedash_redis_up` (1 or 0) and
 * `livedash_redis_outages_total` count them; `/readyz` stays 200 and says `"degraded": ["redis"]`.
 */
export class RedisHealth {
  private down: { since: number; reason: string } | null = null;
  private readonly watched = new Set<RedisClient>();
  private probe: NodeJS.Timeout | null = null;
  private probing = false;
  private closed = false;
  private readonly backListeners = new Set<() => void>();
  private readonly lostListeners = new Set<() => void>();
  private upGauge: Gauge | null = null;
  private outagesCounter: Counter | null = null;
  /** Outages so far (tests read it). */
  outages = 0;
  /** Commands past their wait and not answered yet: while any is, callers take their fallback at once (cleared by an outage). */
  private readonly overdue = new Set<object>();

  constructor(
    /** The connection the breaker asks (a PING) while Redis is down: one without an offline queue. */
    private readonly probeClient: RedisClient,
    private readonly log: Logger,
    private readonly url: string,
  ) {
    this.watch(probeClient);
  }

  /** Whether Redis answers as far as this process knows (false during an outage). */
  get up(): boolean {
    return this.down === null;
  }

  /** A connection to Redis whose errors mean an outage, and whose readiness the return waits for. */
  watch(client: RedisClient): void {
    if (this.watched.has(client)) return;
    this.watched.add(client);
    // A lost connection reports an error, then reconnects; 'end' is a close we asked for (a stop).
    client.on('error', (e: Error) => this.trip(e.message));
  }

  /**
   * Runs a Redis command unless Redis is down (then rejects with RedisDown at once). Past `timeoutMs`
   * the caller gets RedisDown (it takes its fallback) and the command is left to answer late —
   * meanwhile other callers take their fallback without asking; still silent after REDIS_SILENT_MS,
   * or failing with an Error, it puts Redis down. A late answer (a busy event loop) ends the
   * suspicion without an outage. A rejection that is not an Error (a rate limiter's "over the
   * limit" answer) is an answer, not a failure.
   */
  run<T>(command: () => Promise<T>, timeoutMs = REDIS_COMMAND_TIMEOUT_MS, opts: { sendWhileOverdue?: boolean } = {}): Promise<T> {
    if (this.down) return Promise.reject(new RedisDown());
    // A command already waits past its time (its answer or its silence decides): the caller does not
    // wait. Its command is not sent either — unless it must reach Redis if Redis is only slow (a
    // room's packet for the other processes): then it is sent, and the caller goes on at once.
    if (this.overdue.size > 0) {
      if (!opts.sendWhileOverdue) return Promise.reject(new RedisDown());
      timeoutMs = 0;
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const token = {};
      const wait = setTimeout(() => {
        this.overdue.add(token);
        reject(new RedisDown());
      }, timeoutMs);
      const silent = setTimeout(() => {
        if (!settled) this.trip(`no answer within ${REDIS_SILENT_MS / 1000} s`);
      }, Math.max(timeoutMs, REDIS_SILENT_MS));
      silent.unref();
      const done = () => {
        settled = true;
        this.overdue.delete(token);
        clearTimeout(wait);
        clearTimeout(silent);
      };
      command().then(
        (v) => {
          done();
          resolve(v);
        },
        (e: unknown) => {
          done();
          if (e instanceof Error) this.trip(e.message);
          reject(e);
        },
      );
    });
  }

  /** Calls `fn` each time Redis is back after an outage; answers the unsubscribe. */
  onBack(fn: () => void): () => void {
    this.backListeners.add(fn);
    return () => void this.backListeners.delete(fn);
  }

  /** Calls `fn` when an outage begins; answers the unsubscribe. */
  onLost(fn: () => void): () => void {
    this.lostListeners.add(fn);
    return () => void this.lostListeners.delete(fn);
  }

  /** Registers the gauge and the counter on the app's metrics. */
  observe(metrics: Metrics): void {
    this.upGauge = new Gauge({ name: 'livedash_redis_up', help: 'Whether Redis answers (1), or the process serves without it during an outage (0)', registers: [metrics.registry] });
    this.outagesCounter = new Counter({ name: 'livedash_redis_outages_total', help: 'Redis outages this process served through', registers: [metrics.registry] });
    this.upGauge.set(this.up ? 1 : 0);
  }

  /** Redis is down from now (once per outage: the rest of the outage's errors change nothing). */
  private trip(reason: string): void {
    if (this.down || this.closed) return;
    this.down = { since: Date.now(), reason };
    // The outage decides now; commands still stuck from before it do not hold the next return back.
    this.overdue.clear();
    this.outages++;
    this.upGauge?.set(0);
    this.outagesCounter?.inc();
    this.log.warn(
      `redis (${redisAddress(this.url)}) is down: ${reason}. Serving on without it until it answers (asked every ${REDIS_PROBE_MS / 1000} s): rate limits count in each process's memory, rooms and public views are this process's own, revocations reach other processes at their next check`,
    );
    for (const fn of this.lostListeners) fn();
    this.probe = setInterval(() => void this.ask(), REDIS_PROBE_MS);
    this.probe.unref();
  }

  /** Asks Redis whether it is back (every watched connection ready, and a PING answered). */
  private async ask(): Promise<void> {
    if (!this.down || this.probing || this.closed) return;
    if ([...this.watched].some((c) => !c.isReady)) return;
    this.probing = true;
    try {
      const answered = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), REDIS_COMMAND_TIMEOUT_MS);
        this.probeClient.ping().then(() => resolve(true), () => resolve(false)).finally(() => clearTimeout(timer));
      });
      if (!answered || !this.down || this.closed) return;
      const seconds = Math.round((Date.now() - this.down.since) / 1000);
      this.down = null;
      if (this.probe) clearInterval(this.probe);
      this.probe = null;
      this.upGauge?.set(1);
      this.log.info(`redis (${redisAddress(this.url)}) answers again after ${seconds} s of outage`);
      for (const fn of this.backListeners) fn();
    } finally {
      this.probing = false;
    }
  }

  close(): void {
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
  }
}

/** This app's Redis breaker (set at start when REDIS_URL is; absent without Redis). */
export const redisHealthHandle = new AppHandle<RedisHealth>('the Redis breaker');
