import type { AppContext } from '../core';
import { accountsHandle } from '../access';
import { createDataSource } from '../dataSources';
import { createDashboard } from '../dashboards';
import { encodeKeys } from '../core';
import { ingestRecords } from '../records';
import { TEMPLATES } from '@common/widgets/templates';

const SUPPORT_QUEUE = TEMPLATES.find((t) => t.id === 'support-queue')!;

const SUBJECTS = [
  'Cannot log in after password reset', 'Invoice shows the wrong VAT rate', 'Export to CSV times out', 'Feature request: dark mode',
  'Webhook deliveries failing with 502', 'Dashboard not refreshing', 'Add a second admin to our account', 'Refund for duplicate charge',
  'SSO redirect loop on Safari', 'Mobile app crashes on launch', 'API rate limit too low for nightly sync', 'Wrong timezone in reports',
  'Data import stuck at 99%', 'Cannot delete archived project', 'Email notifications arrive twice', 'Upgrade to annual plan',
];
const STATUSES = ['open', 'in progress', 'closed'] as const;
const PRIORITIES = ['high', 'medium', 'low'] as const;
const ASSIGNEES = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Linus Torvalds', 'Margaret Hamilton'];
const CHANNELS = ['email', 'chat', 'phone', 'web'];
const REGIONS = ['EMEA', 'AMER', 'APAC'];

/** Deterministic pseudo-random numbers so every demo looks the same. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function demoTickets(count = 150, now = Date.now()): Record<string, unknown>[] {
  const rand = prng(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  return Array.from({ length: count }, (_, i) => ({
    ticket_id: 1001 + i,
    subject: pick(SUBJECTS),
    status: pick(STATUSES),
    priority: pick(PRIORITIES),
    assignee: pick(ASSIGNEES),
    created_at: new Date(now - Math.floor(rand() * 60 * 24 * 3600 * 1000)).toISOString(),
    custom_fields: [
      { id: 360001, value: pick(CHANNELS) },
      { id: 360002, value: pick(REGIONS) },
      { id: 360003, value: Math.round(rand() * 50) / 10 },
    ],
  }));
}

/**
 * Seeds the demo source and published dashboard into an empty database: no data source, no
 * dashboard, no person yet. A database kept between runs is seeded once; a team that deleted the
 * demo does not get it back at the next start.
 */
export async function seedDemo(ctx: AppContext): Promise<boolean> {
  const [anySource, anyDashboard, anyPerson] = await Promise.all([ctx.models.DataSource.exists({}), ctx.models.Dashboard.exists({}), accountsHandle.of(ctx).models.User.exists({})]);
  if (anySource || anyDashboard || anyPerson) return false;
  const source = await createDataSource(ctx, { name: 'Support Tickets', description: 'Demo help-desk tickets, ingested over the REST API' });
  await ingestRecords(ctx, { sourceId: source.sourceId, records: demoTickets() }, { admin: true });
  const keyMappings = {
    ticket_id: 'Ticket ID', subject: 'Subject', status: 'Status', priority: 'Priority', assignee: 'Assignee', created_at: 'Created',
    custom_360001: 'Channel', custom_360002: 'Region', custom_360003: 'Satisfaction',
  };
  await ctx.models.DataSource.updateOne({ _id: source.id }, { $set: { keyMappings: encodeKeys(keyMappings) } });
  const columns = ['ticket_id', 'subject', 'status', 'priority', 'assignee', 'created_at', 'custom_360001', 'custom_360002'].map((name, order) => ({
    name, visible: true, width: name === 'subject' ? 320 : 150, order,
  }));
  // The Support queue template (KPIs, tickets by priority and per day, the board), with the demo's
  // columns, card fields and colours filled in.
  const [overview, board, table] = SUPPORT_QUEUE.build({
    fields: { status: 'status', priority: 'priority', date: 'created_at' },
    values: { open: ['open'], inProgress: ['in progress'], closed: ['closed'] },
  });
  const tabs = [
    overview,
    { ...table, id: 'tab2', name: 'All Tickets', configuration: { sortable: true, filterable: true, columns } },
    {
      ...board, id: 'tab3', name: 'By Status',
      configuration: {
        ...board.configuration,
        displayKeys: ['ticket_id', 'subject', 'priority', 'assignee'],
        highlightRules: [{ key: 'priority', value: 'high', color: 'red' }, { key: 'priority', value: 'medium', color: 'yellow' }, { key: 'priority', value: 'low', color: 'blue' }],
      },
    },
  ];
  await createDashboard(ctx, {
    name: 'Support Overview',
    description: 'Live view of the support queue: open, in progress and closed tickets, tickets by priority and per day, every ticket, and the queue by status',
    dataSourceId: source.id,
    isPublished: true,
    configuration: { keyMappings: {}, refreshInterval: 30_000, tabs },
  }, { author: { kind: 'system' }, summary: () => "Created the demo dashboard 'Support Overview'" });
  return true;
}
