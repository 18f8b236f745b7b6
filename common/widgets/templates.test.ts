import { describe, expect, it } from 'vitest';
import { DashboardConfiguration } from '../schemas/dashboard';
import { TEMPLATES, fieldRoles, suggestFields, templateProblems, valueRoles, type DashboardTemplate } from './templates';
import { cleanPickedValues, distinctValues, normalizeValue, suggestValues } from './templateValues';

const template = (id: DashboardTemplate['id']) => TEMPLATES.find((t) => t.id === id)!;
const support = template('support-queue');
const sales = template('sales-pipeline');
const supportValues = (values: string[]) => suggestValues(valueRoles(support, 'status'), values);

describe('dashboard templates', () => {
  it.each(TEMPLATES.map((t) => [t.name, t] as const))('%s builds tabs the dashboard schema accepts', (_, t) => {
    const mapping = {
      fields: Object.fromEntries(fieldRoles(t).map((r) => [r.key, `field_${r.key}`])),
      values: Object.fromEntries(valueRoles(t).map((r) => [r.key, [`value_${r.key}`]])),
    };
    expect(templateProblems(t, mapping)).toEqual({});
    const parsed = DashboardConfiguration.safeParse({ tabs: t.build(mapping) });
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    const used = JSON.stringify(parsed.data);
    for (const r of t.roles) expect(used).toContain(r.kind === 'values' ? `value_${r.key}` : `field_${r.key}`);
  });

  it('asks for the values of a category field right after that field, each values role naming it', () => {
    expect(support.roles.map((r) => `${r.key}:${r.kind}`)).toEqual(['status:category', 'open:values', 'inProgress:values', 'closed:values', 'priority:category', 'date:date']);
    expect(valueRoles(support).map((r) => r.of)).toEqual(['status', 'status', 'status']);
    expect(valueRoles(sales).map((r) => [r.key, r.of])).toEqual([['won', 'stage']]);
    for (const t of TEMPLATES) for (const r of valueRoles(t)) expect(fieldRoles(t).find((f) => f.key === r.of)?.kind).toBe('category');
  });

  it('counts the Support queue KPIs with "is one of" filters over the chosen values', () => {
    const [overview] = support.build({
      fields: { status: 'state', priority: 'priority', date: 'created_at' },
      values: { open: ['new', 'open'], inProgress: ['pending', 'hold'], closed: ['solved', 'closed'] },
    });
    expect(overview.widgets.slice(0, 3).map((w) => [w.name, (w.configuration as { filters: unknown[] }).filters[0]])).toEqual([
      ['Open', { field: 'state', operator: 'in', value: '', values: ['new', 'open'] }],
      ['In progress', { field: 'state', operator: 'in', value: '', values: ['pending', 'hold'] }],
      ['Closed', { field: 'state', operator: 'in', value: '', values: ['solved', 'closed'] }],
    ]);
    const [pipeline] = sales.build({ fields: { stage: 'stage', amount: 'amount', date: 'closed_at' }, values: { won: ['Closed Won'] } });
    expect(pipeline.widgets.find((w) => w.id === 'won')).toMatchObject({ name: 'Won deals', configuration: { filters: [{ field: 'stage', operator: 'in', values: ['Closed Won'] }] } });
  });

  it('names every missing field and every values role without a value', () => {
    expect(templateProblems(support, { fields: { status: 'status', date: 'created_at' }, values: { open: ['new'], inProgress: [] } })).toEqual({
      inProgress: 'Pick at least one value that counts as "In progress"',
      closed: 'Pick at least one value that counts as "Closed"',
      priority: 'Pick the field that plays "priority"',
    });
  });

  it('suggests a different field for every field role from the field names', () => {
    expect(suggestFields(support, ['ticket_id', 'subject', 'status', 'priority', 'created_at'])).toEqual({ status: 'status', priority: 'priority', date: 'created_at' });
    expect(suggestFields(sales, ['deal', 'stage', 'amount', 'close_date'])).toEqual({ stage: 'stage', amount: 'amount', date: 'close_date' });
  });
});

describe('value suggestions', () => {
  it('maps Zendesk statuses: new and open are Open, pending and hold In progress, solved and closed Closed', () => {
    expect(supportValues(['open', 'new', 'pending', 'solved', 'hold', 'closed'])).toEqual({ open: ['open', 'new'], inProgress: ['hold', 'pending'], closed: ['solved', 'closed'] });
  });

  it('maps the demo statuses and other trackers\' words, whatever their case and separators', () => {
    expect(supportValues(['open', 'in progress', 'closed'])).toEqual({ open: ['open'], inProgress: ['in progress'], closed: ['closed'] });
    expect(supportValues(['To Do', 'IN_PROGRESS', 'In Review', 'Done', "Won't Fix"])).toEqual({ open: ['To Do'], inProgress: ['IN_PROGRESS', 'In Review'], closed: ['Done', "Won't Fix"] });
    expect(supportValues(['backlog', 'on-hold', 'waiting on customer', 'resolved', 'Closed - duplicate'])).toEqual({ open: ['backlog'], inProgress: ['on-hold', 'waiting on customer'], closed: ['resolved', 'Closed - duplicate'] });
  });

  it('gives "pending" to whichever of Open and In progress has fewer values, and leaves unknown values alone', () => {
    // Next to "in progress" and nothing open, pending tickets wait for work: Open.
    expect(supportValues(['pending', 'in progress', 'done'])).toEqual({ open: ['pending'], inProgress: ['in progress'], closed: ['done'] });
    expect(supportValues(['open', 'pending', 'closed'])).toEqual({ open: ['open'], inProgress: ['pending'], closed: ['closed'] });
    expect(supportValues(['unresolved', 'escalated', 'frobnicated', '42'])).toEqual({ open: ['unresolved'], inProgress: ['escalated'], closed: [] });
  });

  it('suggests won stages, never lost ones', () => {
    expect(suggestValues(valueRoles(sales), ['Prospecting', 'Closed Won', 'Closed Lost', 'won'])).toEqual({ won: ['Closed Won', 'won'] });
  });

  it('lists a field\'s values most frequent first, one per spelling up to case, without empties', () => {
    const records = [
      { status: 'open' }, { status: 'Solved' }, { status: 'solved ' }, { status: 'new' }, { status: 'open' }, { status: 'solved' },
      { status: '' }, { status: null }, {}, { status: ['a'] }, { status: 3 }, { custom_fields: [{ id: 9, value: 'chat' }] },
    ];
    expect(distinctValues(records, 'status')).toEqual([{ value: 'Solved', count: 3 }, { value: 'open', count: 2 }, { value: 'new', count: 1 }, { value: '3', count: 1 }]);
    expect(distinctValues(records, 'custom_9')).toEqual([{ value: 'chat', count: 1 }]);
    expect(distinctValues(records, 'status', 2).map((v) => v.value)).toEqual(['Solved', 'open']);
    expect(normalizeValue('  On_Hold - Customer ')).toBe('on hold customer');
  });

  it('cleans picked and typed values: the records\' spelling, no duplicates up to case, no empties', () => {
    expect(cleanPickedValues(['solved', ' CLOSED ', 'Solved', '', 'archived'], ['solved', 'closed'])).toEqual(['solved', 'closed', 'archived']);
  });
});
