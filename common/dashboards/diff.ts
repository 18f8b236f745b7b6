import microdiff from 'microdiff';
import type { DashboardTab, Widget } from '../schemas/dashboard';
import type { DashboardFilter } from '../schemas/widgets/dashboardFilter';
import type { VersionContent } from '../schemas/dashboardVersion';

/**
 * What changed between two versions of a dashboard, by tab, widget and filter id (a widget is known
 * by its tab and its id: ids are unique within a tab), so a rename reads as a rename and not as a
 * removal and an addition. One function for the server (a version's summary, the diff route) and
 * the console (a conflict's "what changed").
 */

/** A field that changed: a setting (`name`, `refreshInterval`) or a path inside a tab, widget or filter (`configuration.metric`, `layout`). */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export type DiffKind = 'tab' | 'widget' | 'filter';

/** A tab, widget or filter added or removed. */
export interface DiffItem {
  kind: DiffKind;
  id: string;
  /** The widget's tab. */
  tabId?: string;
  /** Its name as shown (a widget without a name: its id; a filter: its label, else its field). */
  name: string;
  /** A widget's type (kpi, bar…), a filter's kind. */
  type?: string;
}

/** A tab, widget or filter in both versions, with the fields that differ. */
export interface ChangedItem extends DiffItem {
  fields: FieldChange[];
  /** Its name before, when it was renamed. */
  previousName?: string;
}

export interface DashboardDiff {
  from: number;
  to: number;
  added: DiffItem[];
  removed: DiffItem[];
  changed: ChangedItem[];
  /** The dashboard's own settings: name, description, data source, publish state, refresh interval, field labels, tab order. */
  settings: FieldChange[];
  /** The same, in sentences ("Added the bar chart 'Revenue by region'"). */
  sentences: string[];
}

const json = (v: unknown) => JSON.stringify(v ?? null);
const widgetName = (w: Widget) => w.name?.trim() || w.id;
const filterName = (f: DashboardFilter) => f.label?.trim() || f.field;

/**
 * The fields of two objects that differ, as paths: a change inside a list (filters, columns) names
 * the list, a move or resize is `layout`.
 */
export function changedFields(before: object, after: object, skip: readonly string[] = []): FieldChange[] {
  const out = new Map<string, FieldChange>();
  for (const d of microdiff(before as Record<string, unknown>, after as Record<string, unknown>)) {
    const cut = d.path.findIndex((p) => typeof p === 'number');
    const path = (cut === -1 ? d.path : d.path.slice(0, cut)).map(String);
    const field = path[0] === 'layout' ? 'layout' : path.join('.');
    if (!field || skip.includes(field) || out.has(field)) continue;
    out.set(field, { field, from: readAt(before, field), to: readAt(after, field) });
  }
  return [...out.values()];
}

function readAt(o: unknown, field: string): unknown {
  let cur = o;
  for (const p of field.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return cur;
}

function byId<T extends { id: string }>(list: readonly T[], key: (x: T) => string = (x) => x.id): Map<string, T> {
  return new Map(list.map((x) => [key(x), x]));
}

/** Tabs, widgets and filters side by side: added, removed, changed. */
function compareLists<T extends { id: string }>(
  before: readonly T[], after: readonly T[], item: (x: T) => DiffItem, name: (x: T) => string, key?: (x: T) => string, skip: readonly string[] = [],
): Pick<DashboardDiff, 'added' | 'removed' | 'changed'> {
  const was = byId(before, key);
  const now = byId(after, key);
  const added = [...now].filter(([k]) => !was.has(k)).map(([, x]) => item(x));
  const removed = [...was].filter(([k]) => !now.has(k)).map(([, x]) => item(x));
  const changed: ChangedItem[] = [];
  for (const [k, x] of now) {
    const old = was.get(k);
    if (!old || json(old) === json(x)) continue;
    const fields = changedFields(old, x, skip);
    if (!fields.length) continue;
    const renamed = name(old) !== name(x);
    changed.push({ ...item(x), fields, ...(renamed ? { previousName: name(old) } : {}) });
  }
  return { added, removed, changed };
}

const tabsOf = (c: VersionContent) => c.configuration.tabs ?? [];
const widgetsOf = (c: VersionContent) => tabsOf(c).flatMap((t) => (t.widgets ?? []).map((w) => ({ ...w, tabId: t.id })));

/** What changed from version `from` (content `a`) to version `to` (content `b`), without the sentences (`diffDashboards` adds them). */
export function compareDashboards(a: VersionContent, b: VersionContent, from: number, to: number): Omit<DashboardDiff, 'sentences'> {
  const settings: FieldChange[] = [];
  for (const field of ['name', 'description', 'dataSourceId', 'isPublished'] as const) {
    if (json(a[field]) !== json(b[field])) settings.push({ field, from: a[field], to: b[field] });
  }
  for (const field of ['refreshInterval', 'keyMappings'] as const) {
    if (json(a.configuration[field]) !== json(b.configuration[field])) settings.push({ field, from: a.configuration[field], to: b.configuration[field] });
  }
  const order = (c: VersionContent) => tabsOf(c).map((t) => t.id).filter((id) => tabsOf(a).some((t) => t.id === id) && tabsOf(b).some((t) => t.id === id));
  if (json(order(a)) !== json(order(b))) settings.push({ field: 'tabOrder', from: tabsOf(a).map((t) => t.id), to: tabsOf(b).map((t) => t.id) });

  const tabs = compareLists<DashboardTab>(tabsOf(a), tabsOf(b), (t) => ({ kind: 'tab', id: t.id, name: t.name, ...(t.style ? { type: t.style } : {}) }), (t) => t.name, undefined, ['widgets']);
  type Placed = Widget & { tabId: string };
  const widgets = compareLists<Placed>(
    widgetsOf(a), widgetsOf(b),
    (w) => ({ kind: 'widget', id: w.id, tabId: w.tabId, name: widgetName(w), type: w.type }),
    widgetName, (w) => `${w.tabId}\u0000${w.id}`, ['tabId'],
  );
  const filters = compareLists<DashboardFilter>(a.configuration.filters ?? [], b.configuration.filters ?? [], (f) => ({ kind: 'filter', id: f.id, name: filterName(f), type: f.kind }), filterName);

  return {
    from, to, settings,
    added: [...tabs.added, ...widgets.added, ...filters.added],
    removed: [...tabs.removed, ...widgets.removed, ...filters.removed],
    changed: [...tabs.changed, ...widgets.changed, ...filters.changed],
  };
}
