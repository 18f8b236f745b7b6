import type { AnyBulkWriteOperation } from 'mongoose';
import { updateDataSource } from '../../dataSources';
import { findDataSource } from '../../core';
import { upsertRecordsIntoSource, removeRecords } from '../../records';
import type { DataSourceDoc } from '../../core';
import type { ZendeskClient } from './client';
import type { EntityDoc, EntityKind, SyncCursors } from './models';
import type { IntegrationsRuntime } from '../runtime';
import {
  keyMappingsFromFields, ticketToRecord, type NameLookups, type ZendeskCustomStatus, type ZendeskOrganization, type ZendeskTicket,
  type ZendeskTicketField, type ZendeskUser,
} from './ticketMapping';

/** What one sync run shares between its steps. */
export interface ZendeskSteps {
  rt: IntegrationsRuntime;
  id: string;
  client: ZendeskClient;
  sourceId: string;
  counts: { tickets: number; users: number; organizations: number; deleted: number };
  /** Reports progress (percent within the whole run) and persists it. */
  progress(percent: number, message: string): Promise<void>;
  /** Counts a page of tickets stored (the run's pages). */
  pageStored(): void;
  /** Persists a cursor as soon as its page is stored, so nothing fetched is fetched twice. */
  saveCursor(patch: Partial<SyncCursors>): Promise<void>;
}

const TICKETS = '/api/v2/incremental/tickets/cursor.json';
const USERS = '/api/v2/incremental/users/cursor.json';
const ORGS = '/api/v2/incremental/organizations.json';

/** Zendesk refuses a start_time in the last minute. */
const startTime = (t: number) => Math.max(0, Math.min(t, Math.floor(Date.now() / 1000) - 60));

async function upsertEntities(run: ZendeskSteps, kind: EntityKind, items: { zendeskId: number; name: string; data: Record<string, unknown> }[]) {
  if (!items.length) return;
  const now = new Date();
  const ops: AnyBulkWriteOperation<EntityDoc>[] = items.map((i) => ({
    updateOne: {
      filter: { integrationId: run.id, kind, zendeskId: i.zendeskId },
      update: { $set: { name: i.name, data: i.data, updatedAt: now } },
      upsert: true,
    },
  }));
  await run.rt.models.Entity.bulkWrite(ops, { ordered: true });
}

/** Ticket fields → the data source's keyMappings (custom_<id> → title). */
export async function syncTicketFields(run: ZendeskSteps, ds: DataSourceDoc): Promise<void> {
  const res = await run.client.get<{ ticket_fields: ZendeskTicketField[] }>('/api/v2/ticket_fields.json');
  await updateDataSource(run.rt.app, String(ds._id), { keyMappings: keyMappingsFromFields(res.ticket_fields ?? []) });
}

export async function syncCustomStatuses(run: ZendeskSteps): Promise<void> {
  const res = await run.client.get<{ custom_statuses: ZendeskCustomStatus[] }>('/api/v2/custom_statuses.json');
  await upsertEntities(run, 'custom_status', (res.custom_statuses ?? []).map((s) => ({
    zendeskId: s.id, name: s.agent_label, data: { status_category: s.status_category, active: s.active ?? true },
  })));
}

/** Time-based export: follow next_page until end_of_stream. */
export async function syncOrganizations(run: ZendeskSteps, from: number): Promise<void> {
  let url = `${ORGS}?start_time=${startTime(from)}`;
  for (;;) {
    const page = await run.client.get<{ organizations: ZendeskOrganization[]; next_page: string | null; end_time: number; end_of_stream: boolean }>(url);
    const orgs = page.organizations ?? [];
    await upsertEntities(run, 'organization', orgs.map((o) => ({ zendeskId: o.id, name: o.name, data: {} })));
    run.counts.organizations += orgs.length;
    await run.saveCursor({ organizations: page.end_time });
    if (page.end_of_stream || !page.next_page || !orgs.length) return;
    url = page.next_page;
  }
}

/** Cursor-based export: `?start_time=` first, then `?cursor=` until end_of_stream. */
async function cursorPages<T>(run: ZendeskSteps, path: string, key: string, from: { cursor: string | null; start: number }, onPage: (items: T[], afterCursor: string) => Promise<void>) {
  let url = from.cursor ? `${path}?cursor=${encodeURIComponent(from.cursor)}` : `${path}?start_time=${startTime(from.start)}`;
  for (;;) {
    const page = await run.client.get<Record<string, unknown> & { after_cursor: string | null; end_of_stream: boolean }>(url);
    const items = (page[key] as T[] | undefined) ?? [];
    const after = page.after_cursor ?? from.cursor;
    await onPage(items, after ?? '');
    if (page.end_of_stream || !page.after_cursor) return;
    url = `${path}?cursor=${encodeURIComponent(page.after_cursor)}`;
  }
}

export async function syncUsers(run: ZendeskSteps, from: { cursor: string | null; start: number }): Promise<void> {
  await cursorPages<ZendeskUser>(run, USERS, 'users', from, async (users, after) => {
    await upsertEntities(run, 'user', users.map((u) => ({ zendeskId: u.id, name: u.name, data: { email: u.email ?? null, role: u.role ?? null, organization_id: u.organization_id ?? null } })));
    run.counts.users += users.length;
    if (after) await run.saveCursor({ users: after });
    await run.progress(40, `Synced ${run.counts.users} users`);
  });
}

async function lookups(run: ZendeskSteps, tickets: ZendeskTicket[]): Promise<NameLookups> {
  const { Entity } = run.rt.models;
  const userIds = [...new Set(tickets.flatMap((t) => [t.requester_id, t.assignee_id]).filter((v): v is number => typeof v === 'number'))];
  const orgIds = [...new Set(tickets.map((t) => t.organization_id).filter((v): v is number => typeof v === 'number'))];
  const [users, orgs, statuses] = await Promise.all([
    userIds.length ? Entity.find({ integrationId: run.id, kind: 'user', zendeskId: { $in: userIds } }).lean<EntityDoc[]>() : [],
    orgIds.length ? Entity.find({ integrationId: run.id, kind: 'organization', zendeskId: { $in: orgIds } }).lean<EntityDoc[]>() : [],
    Entity.find({ integrationId: run.id, kind: 'custom_status' }).lean<EntityDoc[]>(),
  ]);
  const toMap = (list: EntityDoc[]) => new Map(list.map((e) => [e.zendeskId, e.name]));
  return { users: toMap(users), organizations: toMap(orgs), statuses: toMap(statuses) };
}

/** Tickets: each page is upserted (or removed, for deleted tickets) in one batch, then its cursor saved. */
export async function syncTickets(run: ZendeskSteps, from: { cursor: string | null; start: number }): Promise<void> {
  const begin = from.start;
  await cursorPages<ZendeskTicket>(run, TICKETS, 'tickets', from, async (tickets, after) => {
    const ds = await findDataSource(run.rt.app, run.sourceId);
    if (!ds) throw new Error('The integration data source was removed during the sync');
    const deleted = tickets.filter((t) => t.status === 'deleted').map((t) => String(t.id));
    const live = tickets.filter((t) => t.status !== 'deleted');
    if (live.length) {
      const names = await lookups(run, live);
      await upsertRecordsIntoSource(run.rt.app, ds, live.map((t, index) => ({ index, record: ticketToRecord(t, names) })), 'id');
    }
    if (deleted.length) {
      const fresh = (await findDataSource(run.rt.app, run.sourceId)) ?? ds;
      await removeRecords(run.rt.app, fresh, deleted);
    }
    run.counts.tickets += live.length;
    run.counts.deleted += deleted.length;
    run.pageStored();
    if (after) await run.saveCursor({ tickets: after });
    const last = tickets.length ? Date.parse(tickets[tickets.length - 1].updated_at) / 1000 : Date.now() / 1000;
    const now = Date.now() / 1000;
    const share = from.cursor || now <= begin ? 0.5 : Math.min(1, Math.max(0, (last - begin) / (now - begin)));
    await run.progress(Math.round(45 + share * 50), `Synced ${run.counts.tickets} tickets${run.counts.deleted ? `, removed ${run.counts.deleted} deleted` : ''}`);
  });
}
