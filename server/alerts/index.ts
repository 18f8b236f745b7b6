import crypto from 'node:crypto';
import type Router from '@koa/router';
import { rooms } from '@common/realtime';
import { type AppContext, AppHandle, closeRedis, connectRedis, lockedFiltersOf, type RedisClient, redisHealthHandle, type ShareLinkDoc } from '../core';
import type { RealtimeServer } from '../realtime';
import { VIEW_EVENTS_CHANNEL } from '../publicView';
import { AlertEngine } from './engine';
import { AlertLeases } from './lease';
import { createAlertModels } from './models';
import { alertOutbox } from './outbox';
import { stateVisibleThrough } from './presenters';
import { alertsRouter } from './routes';
import { removeRules, type AlertsRuntime } from './service';
import type { SourceEvent } from './watchedSource';


export interface Alerts {
  router: Router;
  runtime: AlertsRuntime;
  /** Tied tiles' states go to the dashboards' viewers (public, share links, drafts) from here on. */
  attachRealtime(io: RealtimeServer): void;
  /** Stops evaluating, hands the rules and unsent messages back (another process continues), stops sending. */
  close(): Promise<void>;
}

/** This app's alerts (tests and the benchmark read the engine through it). */
export const alertsHandle = new AppHandle<AlertsRuntime>('alerts');

const SOURCE_EVENTS = ['records.upserted', 'records.removed', 'datasource.changed'] as const;

/**
 * Alerts: rules on a data source's live number, evaluated as writes land (server/alerts/engine.ts),
 * delivered through an outbox in MongoDB (outbox.ts) to webhooks, Slack, Teams and email, one
 * process per rule (lease.ts). Writes of other processes arrive through the view events they
 * publish on Redis.
 */
export async function startAlerts(app: AppContext): Promise<Alerts> {
  const models = await createAlertModels(app.conn);
  const owner = `${process.pid}-${crypto.randomUUID()}`;
  const outbox = alertOutbox(app, models, owner);
  const engine = new AlertEngine(app, models, outbox, owner);
  const leases = new AlertLeases(app, models, engine, app.config.ALERT_LEASE_MS);
  const runtime: AlertsRuntime = { app, models, engine, leases };
  alertsHandle.set(app, runtime);

  const offs = SOURCE_EVENTS.map((name) => app.events.on(name, (payload) => engine.applySourceEvent({ name, payload } as SourceEvent)));
  // A source or dashboard that goes takes its rules with it.
  offs.push(app.events.on('datasource.removed', ({ dataSourceId }) => void removeWhere(runtime, { dataSourceId })));
  offs.push(app.events.on('dashboard.removed', ({ dashboardId }) => void removeWhere(runtime, { 'widget.dashboardId': dashboardId })));

  let sub: RedisClient | null = null;
  if (app.config.REDIS_URL) {
    sub = await connectRedis(app.config.REDIS_URL, app.log, 'alerts (writes of other processes)');
    // Back after Redis was lost: events of the gap may be missing, so the rules count again.
    let lost = false;
    const recount = () => {
      if (!lost) return;
      lost = false;
      void engine.recountAll().catch((e: unknown) => app.log.error('alerts: could not count the rules again after Redis came back', e));
    };
    sub.on('error', () => (lost = true));
    sub.on('ready', recount);
    // A Redis that hung without dropping the connection: the breaker says when it was down and when it is back.
    const health = redisHealthHandle.peek(app);
    if (health) {
      health.watch(sub);
      offs.push(health.onLost(() => (lost = true)), health.onBack(recount));
    }
    await sub.subscribe(VIEW_EVENTS_CHANNEL, (raw) => {
      try {
        const m = JSON.parse(raw) as { event?: { name: string } };
        // Our own events come back too: applying one twice changes nothing (records carry their revision).
        if (m.event && (SOURCE_EVENTS as readonly string[]).includes(m.event.name)) engine.applySourceEvent(m.event as SourceEvent);
      } catch {
        // not ours to read
      }
    });
  }

  await leases.start();
  outbox.start();
  return {
    router: alertsRouter(runtime),
    runtime,
    attachRealtime(io) {
      engine.tileListener = (s, ruleFilters) => {
        void (async () => {
          // Viewers of a link whose locked filters the rule does not apply get no state (it counts records they may not see).
          const links = await app.models.ShareLink.find({ dashboardId: s.dashboardId, 'filters.0': { $exists: true } }).lean<ShareLinkDoc[]>();
          const hidden = links.filter((l) => !stateVisibleThrough(ruleFilters, lockedFiltersOf(l))).map((l) => rooms.shareLink(String(l._id)));
          io.to([rooms.dashboard(s.dashboardId), rooms.share(s.dashboardId), rooms.draft(s.dashboardId)]).except(hidden).emit('alert:state', s);
        })().catch((e: unknown) => app.log.error('alerts: could not push a tile\'s state', e));
      };
    },
    async close() {
      offs.forEach((off) => off());
      await engine.close();
      await leases.close();
      await outbox.close();
      if (sub) await closeRedis(sub);
      alertsHandle.clear(app);
    },
  };
}

async function removeWhere(rt: AlertsRuntime, filter: Record<string, string>): Promise<void> {
  try {
    const docs = await rt.models.Alert.find(filter).lean();
    await removeRules(rt, docs.map((d) => String(d._id)));
  } catch (e) {
    rt.app.log.error('alerts: could not remove the rules of a removed source or dashboard', e);
  }
}
