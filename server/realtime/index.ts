import type http from 'node:http';
import { Server } from 'socket.io';
import {
  MAX_BYTES_PER_MESSAGE, MAX_RECORDS_PER_MESSAGE, rooms, type ClientToServerEvents, type ServerToClientEvents, type SocketData,
} from '@common/realtime';
import type { AppContext } from '../context';
import { isAdminToken } from '../middleware/guards';
import { ErrorCode } from '@common/schemas/errors';
import { loadPublishedDashboard, publicDashboardHead, publishedDashboardsOnSource } from '../services/dashboards';
import { connectRedisAdapter } from './redisAdapter';
import { attachShareRooms } from './shareRooms';
import { attachActivityFeed } from './activityFeed';
import { attachViewerCounts } from './viewerCounts';
import { presentPublicSummary } from '../presenters';
import type { DashboardDoc, DataSourceDoc } from '../models';
import { findDataSource } from '../services/dataSources';

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface Realtime {
  io: RealtimeServer;
  close(): Promise<void>;
}

const chunk = <T>(list: T[], size: number, maxBytes = Infinity): T[][] => {
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
  }
  out.push(part);
  return out;
};

/** Attaches Socket.IO to the HTTP server and turns domain events into room emits. */
export async function attachRealtime(server: http.Server, ctx: AppContext): Promise<Realtime> {
  const io: RealtimeServer = new Server(server, { serveClient: false, maxHttpBufferSize: 1e6 });
  const redis = ctx.config.REDIS_URL ? await connectRedisAdapter(io, ctx.config.REDIS_URL, ctx.log) : null;

  /** A refused handshake, with a stable code the client matches on (never the message). */
  const refuse = (code: string, message: string) => Object.assign(new Error(message), { data: { code } });
  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token === 'string' && token) {
      // A wrong token in the handshake is a failed sign-in like a wrong bearer token over REST.
      const address = socket.handshake.address;
      const blocked = await ctx.limits.authFailures.blocked(address);
      if (blocked) return next(refuse(ErrorCode.rateLimited, blocked));
      if (!isAdminToken(token, ctx.adminToken)) {
        await ctx.limits.authFailures.penalize(address);
        ctx.activity.record({ kind: 'auth.failed', category: 'auth', summary: 'Refused admin token on the realtime (Socket.IO) handshake', address, details: { audience: 'admin', path: '/socket.io' } });
        return next(refuse(ErrorCode.invalidAdminToken, 'Invalid admin token'));
      }
      socket.data.isAdmin = true;
    } else {
      socket.data.isAdmin = false;
    }
    next();
  });

  io.on('connection', (socket) => {
    if (socket.data.isAdmin) void socket.join(rooms.admin);
    const adminOnly = (ack: unknown, join: () => void) => {
      if (typeof ack !== 'function') return;
      if (!socket.data.isAdmin) return ack({ ok: false, reason: 'Admin token required' });
      join();
      ack({ ok: true });
    };

    socket.on('dashboard:join', async (dashboardId, ack) => {
      if (typeof ack !== 'function') return;
      if (typeof dashboardId !== 'string') return ack({ ok: false, reason: 'dashboardId must be a string' });
      try {
        const { dataSource } = await loadPublishedDashboard(ctx, dashboardId);
        await socket.join(rooms.dashboard(dashboardId));
        ack({ ok: true, revision: dataSource?.revision ?? 0 });
      } catch {
        ack({ ok: false, reason: 'Dashboard Not Found' });
      }
    });
    socket.on('dashboard:leave', (id) => typeof id === 'string' && void socket.leave(rooms.dashboard(id)));
    socket.on('dashboards:join', (ack) => {
      void socket.join(rooms.publicList);
      if (typeof ack === 'function') ack({ ok: true });
    });
    socket.on('datasource:join', (id, ack) => adminOnly(ack, () => typeof id === 'string' && void socket.join(rooms.dataSource(id))));
    socket.on('datasource:leave', (id) => typeof id === 'string' && void socket.leave(rooms.dataSource(id)));
    socket.on('integration:join', (id, ack) => adminOnly(ack, () => typeof id === 'string' && void socket.join(rooms.integration(id))));
    socket.on('integration:leave', (id) => typeof id === 'string' && void socket.leave(rooms.integration(id)));
  });

  // Emits happen in the order of the writes that caused them.
  let queue = Promise.resolve();
  const serial = <T>(fn: (payload: T) => Promise<void> | void) => (payload: T) => {
    queue = queue.then(() => fn(payload)).catch((e) => ctx.log.error('realtime emit failed', e));
  };
  const { events } = ctx;
  const off = [
    events.on('records.upserted', serial(async (e) => {
      const parts = chunk(e.records, MAX_RECORDS_PER_MESSAGE, MAX_BYTES_PER_MESSAGE);
      const dashboards = await publishedDashboardsOnSource(ctx, e.dataSourceId);
      parts.forEach((records, part) => {
        const base = { dataSourceId: e.dataSourceId, revision: e.revision, total: e.total, part, parts: parts.length, records };
        io.to(rooms.dataSource(e.dataSourceId)).emit('records:upserted', base);
        for (const d of dashboards) io.to(rooms.dashboard(String(d._id))).emit('records:upserted', { ...base, dashboardId: String(d._id) });
      });
    })),
    events.on('records.removed', serial(async (e) => {
      const parts = chunk(e.recordIds, MAX_RECORDS_PER_MESSAGE * 10);
      const dashboardIds = e.dashboardIds ?? (await publishedDashboardsOnSource(ctx, e.dataSourceId)).map((d) => String(d._id));
      parts.forEach((recordIds, part) => {
        const base = { dataSourceId: e.dataSourceId, revision: e.revision, total: e.total, part, parts: parts.length, recordIds, all: e.all };
        io.to(rooms.dataSource(e.dataSourceId)).emit('records:removed', base);
        for (const id of dashboardIds) io.to(rooms.dashboard(id)).emit('records:removed', { ...base, dashboardId: id });
      });
    })),
    events.on('datasource.changed', serial(async ({ dataSource, metadataChanged }) => {
      io.to(rooms.admin).emit('admin:datasource:changed', { dataSource });
      if (!metadataChanged) return;
      for (const d of await publishedDashboardsOnSource(ctx, dataSource.id)) await emitPublicHead(d, false);
    })),
    events.on('datasource.removed', serial((e) => {
      io.to(rooms.admin).emit('admin:datasource:removed', e);
    })),
    events.on('dashboard.changed', serial(async ({ dashboard, wasPublished, previousDataSourceId }) => {
      io.to(rooms.admin).emit('admin:dashboard:changed', { dashboard });
      if (!dashboard.isPublished) {
        if (wasPublished) kick(dashboard.id);
        return;
      }
      const loaded = await loadPublishedDashboard(ctx, dashboard.id).catch(() => null);
      if (!loaded) return;
      await emitPublicHead(loaded.dashboard, previousDataSourceId !== dashboard.dataSourceId, loaded.dataSource);
      io.to(rooms.publicList).emit('dashboards:changed', { dashboard: presentPublicSummary(loaded.dashboard, loaded.dataSource?.updatedAt ?? null) });
    })),
    events.on('dashboard.removed', serial(({ dashboardId, wasPublished }) => {
      io.to(rooms.admin).emit('admin:dashboard:removed', { dashboardId });
      if (wasPublished) kick(dashboardId);
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

  /** Tells a published dashboard's viewers its new look (name, tabs, labels), not its records. */
  async function emitPublicHead(dashboard: DashboardDoc, dataSourceChanged: boolean, source?: DataSourceDoc | null) {
    const dataSource = source !== undefined ? source : dashboard.dataSourceId ? await findDataSource(ctx, dashboard.dataSourceId) : null;
    const head = publicDashboardHead(dashboard, dataSource);
    const dashboardId = String(dashboard._id);
    io.to(rooms.dashboard(dashboardId)).emit('dashboard:changed', {
      dashboardId, dashboard: head.dashboard, tabs: head.tabs, dataSource: head.dataSource, dataSourceChanged,
    });
  }

  /** An unpublished or deleted dashboard: tell its viewers and close the room. */
  function kick(dashboardId: string) {
    const room = rooms.dashboard(dashboardId);
    io.to(room).emit('dashboard:removed', { dashboardId });
    io.in(room).socketsLeave(room);
    io.to(rooms.publicList).emit('dashboards:removed', { dashboardId });
  }

  const closeShareRooms = attachShareRooms(io, ctx); // share-link viewers (issue 13)
  const closeActivityFeed = attachActivityFeed(io, ctx); // activity log pushes (issue 13)
  const closeViewerCounts = await attachViewerCounts(io, ctx); // live viewer counts (issue 13)

  return {
    io,
    close: async () => {
      await closeShareRooms();
      closeActivityFeed();
      closeViewerCounts();
      off.forEach((fn) => fn());
      await queue;
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await redis?.close();
    },
  };
}
