import mongoose from 'mongoose';
import { rooms } from '@common/realtime';
import type { AppContext, DashboardDoc } from '../core';
import { hasRole, isLimited, mayFollowSource, mayUseDashboard, type Asker } from './policy';

/** What a socket's credential allows: its role and the dashboards it is limited to (null: all), as the access policy reads it. */
export type Access = Asker;

/**
 * Where the console hears about dashboards and data sources: admins, and editors with every
 * dashboard (a person limited to chosen dashboards is not in the team room). Users, integrations,
 * syncs and the activity log stay in the admin room.
 */
export const TEAM = [rooms.admin, rooms.team];

/** Where the console hears about one dashboard: TEAM, and the editors limited to it. */
export const teamOf = (dashboardId: string) => [...TEAM, rooms.teamDashboard(dashboardId)];

const DATASOURCE = rooms.dataSource('');
const INTEGRATION = rooms.integration('');
const DRAFT = rooms.draft('');
const TEAM_DASHBOARD = rooms.teamDashboard('');

/** Rooms only a signed-in person may hold: left when the credential ends, its role or its dashboard limits change. */
export const isPrivateRoom = (room: string) =>
  room === rooms.admin || room === rooms.team || [DATASOURCE, INTEGRATION, DRAFT, TEAM_DASHBOARD].some((prefix) => room.startsWith(prefix));

/** The dashboard of a `draft:<id>` room, or null. */
export const draftRoomDashboard = (room: string) => (room.startsWith(DRAFT) && room.length > DRAFT.length ? room.slice(DRAFT.length) : null);

/** An unpublished (or any) dashboard a signed-in person may read, or null (no role, outside their dashboards, gone). */
export async function readableDashboard(ctx: AppContext, access: Access, dashboardId: string): Promise<DashboardDoc | null> {
  if (!mayUseDashboard(access, dashboardId) || !mongoose.isObjectIdOrHexString(dashboardId)) return null;
  return ctx.models.Dashboard.findById(dashboardId).lean<DashboardDoc>();
}

/**
 * Whether a credential may hold a private room: `admin` and `integration:<id>` an admin; `team` an
 * editor or admin with every dashboard, `team:<dashboardId>` an editor limited to that dashboard; `datasource:<id>` an editor or admin, limited ones only for
 * a source one of their dashboards uses; `draft:<id>` anyone signed in who may read that dashboard.
 * The one check of joins, recovered sockets and changed dashboard limits.
 */
export async function mayHold(ctx: AppContext, access: Access, room: string): Promise<boolean> {
  if (!access.role) return false;
  if (room === rooms.admin || room.startsWith(INTEGRATION)) return hasRole(access, 'admin');
  if (room === rooms.team) return hasRole(access, 'editor') && !isLimited(access);
  if (room.startsWith(TEAM_DASHBOARD)) return hasRole(access, 'editor') && isLimited(access) && mayUseDashboard(access, room.slice(TEAM_DASHBOARD.length));
  if (room.startsWith(DATASOURCE)) return mayFollowSource(ctx, access, room.slice(DATASOURCE.length));
  const draft = draftRoomDashboard(room);
  if (draft) return Boolean(await readableDashboard(ctx, access, draft));
  return false;
}
