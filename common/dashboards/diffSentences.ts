import type { VersionContent } from '../schemas/dashboardVersion';
import { compareDashboards, type ChangedItem, type DashboardDiff, type DiffItem, type FieldChange } from './diff';

/** How a widget type reads in a sentence ("the bar chart 'Revenue'"). */
const WIDGET_WORDS: Record<string, string> = {
  kpi: 'KPI', gauge: 'gauge', bar: 'bar chart', donut: 'donut', line: 'line chart', scatter: 'scatter chart', table: 'table', bucket: 'bucket board',
};
const FILTER_WORDS: Record<string, string> = { category: 'category filter', date: 'date filter', number: 'number filter' };

/** What a changed path means, in words ("metric", "value field"); others read as their last name split at capitals. */
const FIELD_WORDS: Record<string, string> = {
  'configuration.valueField': 'value field', 'configuration.groupField': 'group field', 'configuration.splitField': 'split field',
  'configuration.dateField': 'date field', 'configuration.xField': 'horizontal field', 'configuration.yField': 'vertical field',
  'configuration.topN': 'number of groups', 'configuration.filters': 'filters', 'configuration.columns': 'columns',
  'configuration.bucketKey': 'bucket field', 'configuration.displayKeys': 'card fields', 'configuration.highlightRules': 'highlight rules',
  layout: 'place or size', visible: 'visibility', ignoreDashboardFilters: 'use of the filter bar', style: 'style', field: 'field', label: 'label', kind: 'kind',
};

const quote = (s: string) => `'${s}'`;
const a = (item: DiffItem) => {
  if (item.kind === 'tab') return `the tab ${quote(item.name)}`;
  if (item.kind === 'filter') return `the ${FILTER_WORDS[item.type ?? ''] ?? 'filter'} ${quote(item.name)}`;
  return `the ${WIDGET_WORDS[item.type ?? ''] ?? 'widget'} ${quote(item.name)}`;
};

function fieldWords(field: string): string {
  if (FIELD_WORDS[field]) return FIELD_WORDS[field];
  const last = field.split('.').pop() ?? field;
  return last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** A short value shown in a sentence; long texts, lists and objects are not. */
function shown(v: unknown): string | null {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string' && v.length > 0 && v.length <= 40) return quote(v);
  return null;
}

function fieldChange(c: FieldChange): string {
  const from = shown(c.from);
  const to = shown(c.to);
  const words = fieldWords(c.field);
  if (from !== null && to !== null) return `${words} from ${from} to ${to}`;
  if (to !== null && (c.from === undefined || c.from === null || c.from === '')) return `${words} set to ${to}`;
  return words;
}

function changedSentence(item: ChangedItem): string[] {
  const out: string[] = [];
  let rest = item.fields.filter((f) => f.field !== 'name' && f.field !== 'label');
  if (item.previousName !== undefined) out.push(`Renamed ${a({ ...item, name: item.previousName })} to ${quote(item.name)}`);
  const type = item.fields.find((f) => f.field === 'type' || (item.kind === 'tab' && f.field === 'style'));
  if (type && item.kind === 'widget') {
    out.push(`Made ${a({ ...item, type: String(type.from) })} a ${WIDGET_WORDS[String(type.to)] ?? String(type.to)}`);
    rest = rest.filter((f) => f !== type);
  }
  const visible = rest.find((f) => f.field === 'visible');
  if (visible) {
    out.push(`${visible.to === false ? 'Hid' : 'Showed'} ${a(item)}`);
    rest = rest.filter((f) => f !== visible);
  }
  if (rest.length === 1 && rest[0].field === 'layout') return [...out, `Moved or resized ${a(item)}`];
  if (rest.length) out.push(`Changed ${a(item)}: ${rest.map(fieldChange).join(', ')}`);
  return out;
}

const seconds = (ms: unknown) => (typeof ms === 'number' ? `${Math.round(ms / 1000)} s` : '?');

function settingSentence(c: FieldChange, sourceName: (id: string | null) => string | null): string {
  switch (c.field) {
    case 'name': return `Renamed the dashboard ${quote(String(c.from))} to ${quote(String(c.to))}`;
    case 'description': return 'Changed the description';
    case 'isPublished': return c.to ? 'Published the dashboard' : 'Unpublished the dashboard';
    case 'refreshInterval': return `Changed the refresh interval from ${seconds(c.from)} to ${seconds(c.to)}`;
    case 'keyMappings': return 'Changed the field labels';
    case 'tabOrder': return 'Reordered the tabs';
    case 'dataSourceId': {
      const name = (id: unknown) => (typeof id === 'string' ? sourceName(id) : null);
      if (!c.to) return `Left the dashboard with no data source${name(c.from) ? ` (${quote(name(c.from)!)} was removed)` : ''}`;
      const to = name(c.to);
      return to ? `Moved the dashboard to the data source ${quote(to)}` : 'Moved the dashboard to another data source';
    }
    default: return `Changed ${fieldWords(c.field)}`;
  }
}

/** The diff in sentences: settings first, then what was added, removed and changed, in the dashboard's order. */
export function diffSentences(diff: Omit<DashboardDiff, 'sentences'>, sourceName: (id: string | null) => string | null = () => null): string[] {
  return [
    ...diff.settings.map((c) => settingSentence(c, sourceName)),
    ...diff.added.map((item) => `Added ${a(item)}`),
    ...diff.removed.map((item) => `Removed ${a(item)}`),
    ...diff.changed.flatMap(changedSentence),
  ];
}

/** A version's summary: its first sentences, the rest counted ("No changes" for a save that changed nothing). */
export function summaryOf(sentences: string[], most = 3): string {
  if (!sentences.length) return 'No changes';
  const head = sentences.slice(0, most).join('; ');
  const more = sentences.length - most;
  return more > 0 ? `${head}; and ${more} more change${more === 1 ? '' : 's'}` : head;
}

/** What changed from version `from` (content `a`) to version `to` (content `b`), with its sentences; `sourceName` names data sources in them. */
export function diffDashboards(a: VersionContent, b: VersionContent, from: number, to: number, sourceName: (id: string | null) => string | null = () => null): DashboardDiff {
  const diff = compareDashboards(a, b, from, to);
  return { ...diff, sentences: diffSentences(diff, sourceName) };
}
