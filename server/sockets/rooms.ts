import type http from 'node:http';
import {
  MAX_BYTES_PER_MESSAGE, MAX_RECORDS_PER_MESSAGE, rooms,
} from '@common/realtime';
import type { AppContext, DashboardDoc, DataSourceDoc } from '../core';
import type { Role } from '@common/schemas/auth';
import { attachAdminAccess, socketHasRole } from './adminAccess';
import { dashboardsOnSource, loadPublishedDashboard, publicDashboardHead } from '../dashboards';
import { emptyRoom, joinDashboard, leaveDashboard, moveRoom, releaseRooms, startViewEventRelay, attachViewerCounts } from '../publicView';
import { startRealtimeServer, type Realtime, startAuthRelay, watchedRooms } from '../realtime';
import { attachEmbedRooms, attachShareRooms, startEmbeddingRelay } from '../sharing';
import { attachImportRooms } from '../imports';
import { attachActivityFeed } from '../activity';
import { startSettingsRelay } from '../settings';
import { recheckRecoveredSessions } from './recoveryCheck';
import { presentPublicSummary, findDataSource, metricsOf, secondsSince, Slicer } from '../core';
import { canonicalObjectId } from '@common/ids';
import { TEAM, mayHold, teamOf, mayFollowSource, signInAs } from '../access';

/** Splits a list into messages of at most `size` items and about `maxBytes` of JSON, giving the loop a turn when the slice is used up. */
async function chunk<T>(list: T[], size: number, maxBytes = Infinity, slicer = new Slicer()): Promise<T[][]> {
  const out: T[][] = [];
  let part: T[] = [];
  let bytes = 0;
  for (const item of list) {
    const itemBytes = maxBytes === Infinity ? 0 : JSON.stringify(item).length;
    if (part.length && (part.length >= size || bytes + itemBytes > maxBytes)) {
      out.push(part);
      part = [];
      bytes = 0;
    }
    part.push(item);
    bytes += itemBytes;
    if (maxBytes !== Infinity) await slicer.tick();
  }
  out.push(part);
  return out;
}

/** Attaches Socket.IO to the HTTP server and turns domain events into room emits. */
export async function attachRealtime(server: http.Server, ctx: AppContext): Promise<Realtime> {
  // Redis was lost (here or in another process): viewers refetch (each after a random delay), since
  // their deltas may have a gap, and signed-in sockets are checked again, since revocations may have.
  let recheckSockets = () => {};
  const onRedisReset = () => {
    io.local.emit('view:resync', { reason: 'redis' });
    recheckSockets();
  };
  const { io, closeCluster } = await startRealtimeServer(server, ctx, { relays: [startViewEventRelay, startAuthRelay, startEmbeddingRelay, startSettingsRelay], onRedisReset });
  // A recovered session keeps only the rooms it may still hold (on whichever adapter is in use).
  recheckRecoveredSessions(io, ctx);

  const adminAccess = attachAdminAccess(io, ctx); // sessions, tokens and roles
  recheckSockets = adminAccess.recheckSockets;

  io.on('connection', (socket) => {
    const allowed = (ack: unknown, role: Role, join: () => void) => {
      if (typeof ack !== 'function') return;
      if (!socketHasRole(socket, role)) return ack({ ok: false, reason: signInAs(role) });
      join();
      ack({ ok: true });
    };

    socket.on('dashboard:join', (dashboardId, ack) => void joinDashboard(ctx, socket, dashboardId, ack));
    socket.on('dashboard:leave', (id) => void leaveDashboard(ctx, socket, id));
    socket.on('dashboards:join', (ack) => {
      void socket.join(rooms.publicList);
      if (typeof ack === 'function') ack({ ok: true });
    });
    // Admin rooms are keyed by canonical ids (common/ids.ts): another spelling is the same room.
    const roomOf = (room: (id: string) => string, raw: unknown) => {
      const id = canonicalObjectId(raw);
      return id ? room(id) : null;
    };
    const join = (ack: unknown, role: Role, room: string | null) => allowed(ack, role, () => room && void socket.join(room));
    const leave = (room: string | null) => room && void socket.leave(room);
    // A person limited to chosen dashboards follows only the data sources those dashboards use (the access policy decides).
    const joinSource = async (raw: unknown, ack: unknown) => {
      const id = canonicalObjectId(raw);
      if (typeof ack === 'function' && socketHasRole(socket, 'editor')) {
        // A sourceId or another text names no room: said so, rather than acknowledging a join of nothing.
        if (!id) return ack({ ok: false, reason: 'Not a data source id: join a data source by its id' });
        if (!(await mayFollowSource(ctx, socket.data, id))) return ack({ ok: false, reason: 'You are limited to chosen dashboards, and none of them uses this data source' });
      }
      join(ack, 'editor', id ? rooms.dataSource(id) : null);
    };
    socket.on('datasource:join', (raw, ack) => void joinSource(raw, ack).catch((e) => ctx.log.error('datasource:join failed', e)));
    socket.on('datasource:leave', (raw) => leave(roomOf(rooms.dataSource, raw)));
    socket.on('integration:join', (raw, ack) => join(ack, 'admin', roomOf(rooms.integration, raw)));
    socket.on('integration:leave', (raw) => leave(roomOf(rooms.integration, raw)));
  });

  // Emits happen in the order of the writes that caused them.
  let queue = Promise.resolve();
  const serial = <T>(fn: (payload: T, since: number) => Promise<void> | void) => (payload: T) => {
    const since = performance.now();
    queue = queue.then(() => fn(payload, since)).catch((e) => ctx.log.error('realtime emit failed', e));
  };
  const pushLatency = metricsOf(ctx).pushLatency;
  const { events } = ctx;
  // Records go only to rooms someone watches (or may come back to): see watchedRooms.
  const watched = watchedRooms(io, Boolean(ctx.config.REDIS_URL));
  const sourceRooms = (dataSourceId: string) => [rooms.dataSource(dataSourceId), rooms.source(dataSourceId)];
  const off = [
    // One emit per change, to the admins watching the source and to its public audience (the
    // viewers of every published dashboard on it): no database read per ingest.
    // A large change is measured and sent part by part, the loop getting a turn between parts
    // (each part is encoded once for every socket of the rooms).
    events.on('records.upserted', serial(async (e, since) => {
      if (!watched(sourceRooms(e.dataSourceId))) return;
      const slicer = new Slicer();
      const parts = await chunk(e.records, MAX_RECORDS_PER_MESSAGE, MAX_BYTES_PER_MESSAGE, slicer);
      for (const [part, records] of parts.entries()) {
        io.to(sourceRooms(e.dataSourceId)).emit('records:upserted', {
          dataSourceId: e.dataSourceId, revision: e.revision, total: e.total, part, parts: parts.length, records,
        });
        if (part < parts.length - 1) await slicer.tick();
      }
      pushLatency.observe(secondsSince(since));
    })),
    events.on('records.removed', serial(async (e) => {
      if (!watched(sourceRooms(e.dataSourceId))) return;
      const parts = await chunk(e.recordIds, MAX_RECORDS_PER_MESSAGE * 10);
      parts.forEach((recordIds, part) => {
        io.to(sourceRooms(e.dataSourceId)).emit('records:removed', {
          dataSourceId: e.dataSourceId, revision: e.revision, total: e.total, part, parts: parts.length, recordIds, all: e.all,
        });
      });
    })),
    events.on('datasource.changed', serial(async ({ dataSource, metadataChanged }) => {
      // Editors limited to chosen dashboards hear a source's changes while they follow it (datasource:join checks them).
      io.to([...TEAM, rooms.dataSource(dataSource.id)]).emit('admin:datasource:changed', { dataSource });
      if (!metadataChanged) return;
      // Its dashboards' viewers get the new labels: public ones of the published dashboards, signed-in ones of drafts too.
      const source = await findDataSource(ctx, dataSource.id);
      for (const d of await dashboardsOnSource(ctx, dataSource.id)) {
        await emitPublicHead(d, false, source, d.isPublished ? undefined : [rooms.draft(String(d._id))]);
      }
    })),
    events.on('datasource.removed', serial((e) => {
      io.to([...TEAM, rooms.dataSource(e.dataSourceId)]).emit('admin:datasource:removed', e);
    })),
    events.on('dashboard.changed', serial(async ({ dashboard, wasPublished, previousDataSourceId }) => {
      io.to(teamOf(dashboard.id)).emit('admin:dashboard:changed', { dashboard });
      const moved = previousDataSourceId !== dashboard.dataSourceId;
      if (!dashboard.isPublished && wasPublished) await kick(dashboard.id, [previousDataSourceId, dashboard.dataSourceId]);
      // Signed-in people viewing it as a draft follow it to its new source (published or not).
      if (moved) await moveRoom(ctx, io, rooms.draft(dashboard.id), previousDataSourceId, dashboard.dataSourceId);
      // Editors limited to this dashboard stop hearing its old source unless another of their dashboards uses it.
      if (moved && previousDataSourceId) await leaveLostSource(dashboard.id, previousDataSourceId);
      if (!dashboard.isPublished) {
        const draft = await ctx.models.Dashboard.findById(dashboard.id).lean<DashboardDoc>();
        if (draft) await emitPublicHead(draft, moved, undefined, [rooms.draft(dashboard.id)]);
        return;
      }
      // Viewers follow the dashboard to its new source's deltas at once (the clients also re-join).
      if (moved) await moveRoom(ctx, io, rooms.dashboard(dashboard.id), previousDataSourceId, dashboard.dataSourceId);
      const loaded = await loadPublishedDashboard(ctx, dashboard.id).catch(() => null);
      if (!loaded) return;
      await emitPublicHead(loaded.dashboard, moved, loaded.dataSource);
      io.to(rooms.publicList).emit('dashboards:changed', { dashboard: presentPublicSummary(loaded.dashboard, loaded.dataSource?.updatedAt ?? null) });
    })),
    events.on('dashboard.removed', serial(async ({ dashboardId, wasPublished, dataSourceId }) => {
      io.to(teamOf(dashboardId)).emit('admin:dashboard:removed', { dashboardId });
      if (wasPublished) await kick(dashboardId, [dataSourceId]);
      io.to(rooms.draft(dashboardId)).emit('dashboard:removed', { dashboardId });
      await emptyRoom(ctx, io, rooms.draft(dashboardId), [dataSourceId]);
    })),
    events.on('integration.changed', serial((e) => {
      io.to(rooms.admin).emit('admin:integration:changed', e);
    })),
    events.on('integration.removed', serial((e) => {
      io.to(rooms.admin).emit('admin:integration:removed', e);
    })),
    events.on('sync.progress', serial((e) => {
      io.to([rooms.admin, rooms.integration(e.integrationId)]).emit('sync:progress', e);
    })),
    events.on('sync.completed', serial((e) => {
      io.to([rooms.admin, rooms.integration(e.integrationId)]).emit('sync:completed', e);
    })),
    events.on('sync.failed', serial((e) => {
      io.to([rooms.admin, rooms.integration(e.integrationId)]).emit('sync:failed', e);
    })),
  ];

  /** Takes the console sockets limited to a dashboard out of its former source's room when no dashboard of theirs uses it now (on any process). */
  async function leaveLostSource(dashboardId: string, dataSourceId: string) {
    const room = rooms.dataSource(dataSourceId);
    for (const socket of await io.in(rooms.teamDashboard(dashboardId)).fetchSockets()) {
      if (socket.rooms.has(room) && !(await mayHold(ctx, socket.data, room))) socket.leave(room);
    }
  }

  /** Tells a dashboard's viewers (public, and signed-in ones of its draft) its new look (name, tabs, labels), not its records. */
  async function emitPublicHead(dashboard: DashboardDoc, dataSourceChanged: boolean, source?: DataSourceDoc | null, to = [rooms.dashboard(String(dashboard._id)), rooms.draft(String(dashboard._id))]) {
    const dataSource = source !== undefined ? source : dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
    const head = publicDashboardHead(dashboard, dataSource);
    const dashboardId = String(dashboard._id);
    io.to(to).emit('dashboard:changed', {
      dashboardId, dashboard: head.dashboard, tabs: head.tabs, dataSource: head.dataSource, dataSourceChanged,
    });
  }

  /**
   * An unpublished or deleted dashboard: tell its viewers, close the room, and take them out of its
   * source's audience unless something else they view needs it. Signed-in viewers who may read the
   * draft keep viewing it (they move to its draft room, keeping the source's audience).
   */
  async function kick(dashboardId: string, dataSourceIds: (string | null | undefined)[]) {
    const room = rooms.dashboard(dashboardId);
    const draft = rooms.draft(dashboardId);
    const viewers = await io.in(room).fetchSockets();
    const staying = new Set<string>();
    for (const socket of viewers) {
      if (!socket.data.role || !(await mayHold(ctx, socket.data, draft))) continue;
      staying.add(socket.id);
      socket.join(draft);
    }
    io.to(room).except(draft).emit('dashboard:removed', { dashboardId });
    io.to(rooms.publicList).emit('dashboards:removed', { dashboardId });
    const sources = dataSourceIds.filter((x): x is string => Boolean(x)).map((id) => rooms.source(id));
    for (const socket of viewers) {
      // Judged on the rooms they hold now (a staying viewer's draft room keeps its source's audience).
      const held = staying.has(socket.id) ? new Set([...socket.rooms, draft]) : socket.rooms;
      await releaseRooms(ctx, { rooms: held, leave: (r) => socket.leave(r) }, [room], sources);
    }
  }

  const closeShareRooms = attachShareRooms(io, ctx); // share-link viewers
  const closeEmbedRooms = attachEmbedRooms(io, ctx); // signed-embedding viewers
  const closeActivityFeed = attachActivityFeed(io, ctx); // activity log pushes
  const closeImportRooms = attachImportRooms(io, ctx); // Import Data progress
  const closeViewerCounts = await attachViewerCounts(io, ctx); // live viewer counts

  return {
    io,
    close: async () => {
      adminAccess.close();
      await closeShareRooms();
      closeEmbedRooms();
      closeActivityFeed();
      closeImportRooms();
      await closeViewerCounts();
      off.forEach((fn) => fn());
      await queue;
      // Every client's connection ends (browsers reconnect to the next process), then io.close
      // closes the HTTP server too, waiting for its requests under way (server/operations/shutdown cuts them after a grace).
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await closeCluster();
    },
  };
}
