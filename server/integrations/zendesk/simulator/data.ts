/**
 * Deterministic, changeable Zendesk-shaped data for the simulator. Every change gets a global
 * sequence number, so the cursor-based exports can resume exactly where they stopped even when
 * several changes share one second.
 */

export interface SimTicketField {
  id: number;
  type: string;
  title: string;
  active: boolean;
  required: boolean;
  custom_field_options?: { id: number; name: string; value: string }[];
}

export interface SimCustomStatus {
  id: number;
  status_category: 'new' | 'open' | 'pending' | 'hold' | 'solved';
  agent_label: string;
  end_user_label: string;
  description: string;
  active: boolean;
  default: boolean;
  created_at: string;
  updated_at: string;
}

interface Stamped {
  seq: number;
  /** unix seconds of the last change */
  ts: number;
}

export interface SimOrganization extends Stamped {
  id: number;
  name: string;
  domain_names: string[];
  created_at: string;
  updated_at: string;
}

export interface SimUser extends Stamped {
  id: number;
  name: string;
  email: string;
  role: 'end-user' | 'agent' | 'admin';
  organization_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface SimTicket extends Stamped {
  id: number;
  subject: string;
  description: string;
  status: string;
  custom_status_id: number;
  priority: string | null;
  type: string | null;
  requester_id: number;
  assignee_id: number | null;
  organization_id: number | null;
  tags: string[];
  custom_fields: { id: number; value: string | number | boolean | null }[];
  created_at: string;
  updated_at: string;
}

export interface SimDataOptions {
  seed?: number;
  tickets?: number;
  users?: number;
  organizations?: number;
  /** The generated history spans this many days before now. */
  historyDays?: number;
}

/** mulberry32: small, fast, deterministic. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const FIRST = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jon', 'Kira', 'Liam', 'Mei', 'Noor', 'Omar', 'Pia'];
const LAST = ['Lovelace', 'Okafor', 'Martin', 'Patel', 'Rossi', 'Haddad', 'Hopper', 'Weber', 'Silva', 'Berg', 'Tanaka', 'Byrne'];
const TOPICS = ['Login fails', 'Refund request', 'Invoice missing', 'App crashes on start', 'Cannot export CSV', 'Password reset', 'Shipping delay', 'Feature request', 'API rate limits', 'Billing address change', 'Dashboard slow', 'Webhook not firing'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent', null];
const TYPES = ['question', 'incident', 'problem', 'task', null];
const TAGS = ['vip', 'billing', 'mobile', 'web', 'api', 'churn-risk', 'onboarding', 'bug'];

export const CUSTOM_FIELD_IDS = { productArea: 360001, orderNumber: 360002, escalated: 360003, region: 360004, dueDate: 360005 } as const;

/** The in-memory Zendesk account the simulator serves. */
export class SimData {
  readonly ticketFields: SimTicketField[];
  readonly customStatuses: SimCustomStatus[];
  readonly organizations = new Map<number, SimOrganization>();
  readonly users = new Map<number, SimUser>();
  readonly tickets = new Map<number, SimTicket>();
  private seq = 0;
  private lastTs = 0;
  private nextTicketId = 1;
  private readonly rand: () => number;

  constructor(opts: SimDataOptions = {}, private readonly clock: () => number = () => Math.floor(Date.now() / 1000)) {
    this.rand = prng(opts.seed ?? 42);
    const now = this.clock();
    const history = (opts.historyDays ?? 400) * 86_400;
    const created = iso(now - history);
    this.ticketFields = [
      { id: 100, type: 'subject', title: 'Subject', active: true, required: true },
      { id: 101, type: 'description', title: 'Description', active: true, required: true },
      { id: 102, type: 'status', title: 'Status', active: true, required: false },
      { id: 103, type: 'tickettype', title: 'Type', active: true, required: false },
      { id: 104, type: 'priority', title: 'Priority', active: true, required: false },
      { id: 105, type: 'assignee', title: 'Assignee', active: true, required: false },
      {
        id: CUSTOM_FIELD_IDS.productArea, type: 'tagger', title: 'Product Area', active: true, required: false,
        custom_field_options: ['billing', 'dashboards', 'integrations', 'mobile'].map((v, i) => ({ id: 9000 + i, name: v[0].toUpperCase() + v.slice(1), value: `area_${v}` })),
      },
      { id: CUSTOM_FIELD_IDS.orderNumber, type: 'integer', title: 'Order Number', active: true, required: false },
      { id: CUSTOM_FIELD_IDS.escalated, type: 'checkbox', title: 'Escalated', active: true, required: false },
      { id: CUSTOM_FIELD_IDS.region, type: 'text', title: 'Region', active: true, required: false },
      { id: CUSTOM_FIELD_IDS.dueDate, type: 'date', title: 'Due Date', active: true, required: false },
    ];
    const status = (id: number, cat: SimCustomStatus['status_category'], label: string, dflt: boolean): SimCustomStatus => ({
      id, status_category: cat, agent_label: label, end_user_label: label, description: `${label} tickets`, active: true, default: dflt, created_at: created, updated_at: created,
    });
    this.customStatuses = [
      status(1, 'new', 'New', true), status(2, 'open', 'Open', true), status(3, 'open', 'In Progress', false),
      status(4, 'pending', 'Pending', true), status(5, 'pending', 'Awaiting Customer', false), status(6, 'hold', 'On-hold', true), status(7, 'solved', 'Solved', true),
    ];

    const nOrgs = opts.organizations ?? 25;
    const nUsers = opts.users ?? 300;
    const nTickets = opts.tickets ?? 3000;
    const past = () => now - 120 - Math.floor(this.rand() * history);
    const pending: { ts: number; put: (seq: number, ts: number) => void }[] = [];
    for (let i = 1; i <= nOrgs; i++) {
      const id = 5000 + i;
      const ts = past();
      const org = { id, name: `${LAST[i % LAST.length]} ${['Labs', 'Inc', 'GmbH', 'Group', 'Co'][i % 5]} ${i}`, domain_names: [`org${i}.example.com`], created_at: iso(ts), updated_at: iso(ts), seq: 0, ts };
      pending.push({ ts, put: (seq) => this.organizations.set(id, { ...org, seq }) });
    }
    for (let i = 1; i <= nUsers; i++) {
      const id = 10_000 + i;
      const ts = past();
      const name = `${this.pick(FIRST)} ${this.pick(LAST)}`;
      const user: SimUser = {
        id, name, email: `user${i}@example.com`, role: i <= Math.max(3, Math.floor(nUsers / 20)) ? 'agent' : 'end-user',
        organization_id: nOrgs ? 5001 + (i % nOrgs) : null, created_at: iso(ts), updated_at: iso(ts), seq: 0, ts,
      };
      pending.push({ ts, put: (seq) => this.users.set(id, { ...user, seq }) });
    }
    for (let i = 0; i < nTickets; i++) {
      const createdTs = past();
      const ts = Math.min(now - 120, createdTs + Math.floor(this.rand() * 30 * 86_400));
      const t = this.newTicket(createdTs, ts);
      pending.push({ ts, put: (seq) => this.tickets.set(t.id, { ...t, seq }) });
    }
    pending.sort((a, b) => a.ts - b.ts);
    for (const p of pending) p.put(++this.seq, p.ts);
    this.lastTs = now;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }

  private agents(): SimUser[] {
    return [...this.users.values()].filter((u) => u.role === 'agent');
  }

  private newTicket(createdTs: number, ts: number): SimTicket {
    const requester = this.users.size ? this.pick([...this.users.values()]) : null;
    const agents = this.agents();
    const cs = this.pick(this.customStatuses);
    const id = this.nextTicketId++;
    return {
      id,
      subject: `${this.pick(TOPICS)} #${id}`,
      description: `Customer reports: ${this.pick(TOPICS).toLowerCase()}.`,
      status: cs.status_category,
      custom_status_id: cs.id,
      priority: this.pick(PRIORITIES),
      type: this.pick(TYPES),
      requester_id: requester?.id ?? 10_001,
      assignee_id: agents.length && this.rand() < 0.8 ? this.pick(agents).id : null,
      organization_id: requester?.organization_id ?? null,
      tags: TAGS.filter(() => this.rand() < 0.2),
      custom_fields: [
        { id: CUSTOM_FIELD_IDS.productArea, value: `area_${this.pick(['billing', 'dashboards', 'integrations', 'mobile'])}` },
        { id: CUSTOM_FIELD_IDS.orderNumber, value: this.rand() < 0.6 ? 100_000 + Math.floor(this.rand() * 900_000) : null },
        { id: CUSTOM_FIELD_IDS.escalated, value: this.rand() < 0.15 },
        { id: CUSTOM_FIELD_IDS.region, value: this.pick(['EMEA', 'AMER', 'APAC']) },
        { id: CUSTOM_FIELD_IDS.dueDate, value: this.rand() < 0.3 ? iso(createdTs + 7 * 86_400).slice(0, 10) : null },
      ],
      created_at: iso(createdTs),
      updated_at: iso(ts),
      seq: 0,
      ts,
    };
  }

  /** A change stamp: never earlier than the previous one. */
  private stamp(): { seq: number; ts: number } {
    this.lastTs = Math.max(this.lastTs, this.clock());
    return { seq: ++this.seq, ts: this.lastTs };
  }

  /** Creates a ticket now; returns it. */
  createTicket(patch: Partial<Pick<SimTicket, 'subject' | 'priority'>> = {}): SimTicket {
    const { seq, ts } = this.stamp();
    const t = { ...this.newTicket(ts, ts), ...patch, seq, ts };
    this.tickets.set(t.id, t);
    return t;
  }

  /** Updates a live ticket now (new status, priority or subject). */
  updateTicket(id: number, patch: Partial<Pick<SimTicket, 'subject' | 'priority' | 'custom_status_id'>> = {}): SimTicket | null {
    const t = this.tickets.get(id);
    if (!t || t.status === 'deleted') return null;
    const { seq, ts } = this.stamp();
    const cs = this.customStatuses.find((c) => c.id === (patch.custom_status_id ?? t.custom_status_id)) ?? this.customStatuses[1];
    const next: SimTicket = { ...t, priority: this.pick(PRIORITIES), ...patch, custom_status_id: cs.id, status: cs.status_category, updated_at: iso(ts), seq, ts };
    this.tickets.set(id, next);
    return next;
  }

  /** Deletes a ticket: the export then shows it with status "deleted", as Zendesk does. */
  deleteTicket(id: number): SimTicket | null {
    const t = this.tickets.get(id);
    if (!t || t.status === 'deleted') return null;
    const { seq, ts } = this.stamp();
    const next = { ...t, status: 'deleted', updated_at: iso(ts), seq, ts };
    this.tickets.set(id, next);
    return next;
  }

  /** Random activity: new, updated and deleted tickets. */
  churn(counts: { create?: number; update?: number; remove?: number } = {}): { created: number[]; updated: number[]; deleted: number[] } {
    const live = () => [...this.tickets.values()].filter((t) => t.status !== 'deleted');
    const created = Array.from({ length: counts.create ?? 3 }, () => this.createTicket().id);
    const updated: number[] = [];
    for (let i = 0; i < (counts.update ?? 3); i++) {
      const t = live().length ? this.pick(live()) : null;
      if (t && this.updateTicket(t.id)) updated.push(t.id);
    }
    const deleted: number[] = [];
    for (let i = 0; i < (counts.remove ?? 1); i++) {
      const t = live().length ? this.pick(live()) : null;
      if (t && this.deleteTicket(t.id)) deleted.push(t.id);
    }
    return { created, updated, deleted };
  }
}

/** Strips the simulator's bookkeeping from an exported item. */
export function publicItem<T extends Stamped>(item: T): Omit<T, 'seq' | 'ts'> {
  const { seq: _seq, ts: _ts, ...rest } = item;
  return rest;
}
