import { fieldValue, isEmptyValue, recordFields } from '@common/cells';
import { formatValue } from '@common/formats';
import type { TabConfiguration, Widget } from '@common/schemas/dashboard';
import type { RecordDto } from '@common/schemas/records/record';
import { GRID_COLUMNS, type ChartConfigs, type Threshold, type ChartWidgetType, type WidgetLayout } from '@common/schemas/widgets/widget';
import { recordTimeReader } from '@common/time/recordTime';
import { typedFormat } from '@common/types/fieldTyping';
import { Aggregator } from '@common/widgets/aggregate';
import { scatterPoints } from '@common/widgets/charts/scatter';
import { formatKpi, thresholdColor } from '@common/widgets/format';
import { placeWidgets } from '@common/widgets/layout';
import { binWidthOf, chartSpec, parseChartWidget, specTyping, widgetNumbers, type WidgetNumbers } from '@common/widgets/drawn/widgetData';
import { againstText, changeText, kpiCaption, trendOf } from '@common/widgets/drawn/widgetText';
import { Slicer } from '../../core';
import { widgetRecords, type ReportView } from './view';

/**
 * What a report draws of each widget, computed once and drawn twice (the picture's SVG, the PDF):
 * a chart's numbers from common/widgets — the viewer's code path, fed the same records — a KPI's
 * and a gauge's texts, a table's first rows and a bucket board's first cards, as text.
 */

/** Rows of a table a report keeps (the picture shows those that fit; the PDF continues over pages up to this). */
export const TABLE_ROWS_KEPT = 500;
/** Cards of a bucket board's group, and groups of a board, a report keeps. */
export const BOARD_CARDS_KEPT = 8;
export const BOARD_GROUPS_KEPT = 8;

export type WidgetModel = { id: string; title: string; layout: WidgetLayout } & (
  | { kind: 'chart'; numbers: Exclude<WidgetNumbers, { type: 'kpi' | 'gauge' }>; empty: boolean }
  | { kind: 'kpi'; numbers: Extract<WidgetNumbers, { type: 'kpi' }>; text: string; caption: string; color: Threshold['color'] | null; change: { text: string; trend: 'better' | 'worse' | 'same' } | null }
  | { kind: 'gauge'; numbers: Extract<WidgetNumbers, { type: 'gauge' }>; text: string; percentText: string; caption: string }
  | TableModel
  | BoardModel
  | { kind: 'problem'; message: string }
);
export type TableModel = { kind: 'table'; columns: string[]; rows: TableCell[][]; total: number };
export type BoardModel = { kind: 'bucket'; groups: { title: string; count: number; cards: { color: string; lines: [string, string][] }[] }[]; totalGroups: number };
export interface TableCell {
  text: string;
  numeric?: boolean;
  /** A status or priority badge's colour name, as the viewer's table draws it. */
  badge?: string;
}

/** The KPI tiles' (and gauges') numbers as text, for an email body or a chat message. */
export interface ReportKpi {
  title: string;
  value: string;
  /** "▲ 12% vs previous 7 days", when the tile compares. */
  change?: string;
}

/** The widgets of the view's tab, each at its place on the 12-column grid (a tab without widgets: its own table or board, full width). */
export async function widgetModels(view: ReportView): Promise<WidgetModel[]> {
  const slicer = new Slicer();
  const visible = view.tab.widgets.filter((w) => w.visible !== false);
  const widgets: Widget[] = view.tab.widgets.length
    ? visible
    : [{ id: view.tab.id, name: '', type: view.tab.type ?? 'table', visible: true, configuration: view.tab.configuration ?? {}, layout: { x: 0, y: 0, w: GRID_COLUMNS, h: 10 } }];
  // Tables and boards never placed on the grid stack full width, as the viewer stacks them.
  const stacked = widgets.every((w) => !w.layout && (w.type === 'table' || w.type === 'bucket'));
  const placed = stacked ? widgets.map((w, i) => ({ ...w, layout: { x: 0, y: i * 10, w: GRID_COLUMNS, h: 10 } })) : placeWidgets(widgets);
  const out: WidgetModel[] = [];
  for (const w of placed) {
    out.push(await widgetModel(view, w, slicer));
    await slicer.tick();
  }
  return out;
}

async function widgetModel(view: ReportView, w: Widget & { layout: WidgetLayout }, slicer: Slicer): Promise<WidgetModel> {
  const base = { id: w.id, title: w.name || (view.tab.widgets.length ? w.id : view.tab.name), layout: w.layout };
  const records = widgetRecords(view, w);
  if (w.type === 'table') return { ...base, ...tableOf(view, w.configuration ?? {}, records) };
  const parsed = parseChartWidget(w, view.timeField);
  if (!parsed.ok) return w.type === 'bucket' || !['kpi', 'gauge', 'bar', 'donut', 'line', 'scatter'].includes(w.type) ? { ...base, ...boardOf(view, w.configuration ?? {}, records) } : { ...base, kind: 'problem', message: parsed.message };
  const numbers = await countWidget(view, parsed.type, parsed.config, records, slicer);
  if (numbers.type === 'kpi') {
    const c = numbers.config;
    return {
      ...base, kind: 'kpi', numbers, text: formatKpi(numbers.value, c), caption: kpiCaption(c, view.label), color: thresholdColor(numbers.value, c.thresholds),
      change: numbers.comparison ? { text: `${changeText(numbers.comparison)} vs ${againstText(numbers.comparison, c.range)}`, trend: trendOf(numbers.comparison, c.better) } : null,
    };
  }
  if (numbers.type === 'gauge') {
    const c = numbers.config;
    const unit = { decimals: c.decimals, unit: c.unit, unitPosition: 'suffix' as const };
    const percentText = numbers.percent === null ? '—' : `${Math.round(numbers.percent).toLocaleString('en-US')}% of goal`;
    const goal = `Goal ${formatKpi(c.goal, { ...unit, decimals: Number.isInteger(c.goal) ? 0 : c.decimals })}`;
    return { ...base, kind: 'gauge', numbers, text: formatKpi(numbers.value, unit), percentText, caption: `${kpiCaption(c, view.label)} · ${goal}` };
  }
  return { ...base, kind: 'chart', numbers, empty: isEmptyChart(numbers) };
}

/**
 * A chart widget's numbers by the viewer's code path (common/widgets): the same spec, the same
 * Aggregator fed the same records, the same reading of its totals — counted in slices so a large
 * source never holds the event loop.
 */
export async function countWidget(view: Pick<ReportView, 'typing' | 'timeField' | 'now'>, type: ChartWidgetType, config: ChartConfigs[ChartWidgetType], records: RecordDto[], slicer: Slicer): Promise<WidgetNumbers> {
  const typed = specTyping(view.typing, config);
  const binWidth = binWidthOf(type, config, () => records);
  const aggregator = new Aggregator(chartSpec(type, config, typed, view.timeField, binWidth), undefined, view.now);
  for (let i = 0; i < records.length; i++) {
    aggregator.update(undefined, records[i].data);
    if ((i & 511) === 511) await slicer.tick();
  }
  const scatter = type === 'scatter' ? scatterPoints(records, config as ChartConfigs['scatter'], typed) : null;
  return widgetNumbers(type, config, aggregator, binWidth, scatter);
}

function isEmptyChart(n: WidgetNumbers): boolean {
  switch (n.type) {
    case 'bar':
    case 'donut': return n.rows.length === 0;
    case 'line': return n.axis === 'time' ? n.starts.length === 0 || n.series.length === 0 : n.xs.length === 0;
    case 'scatter': return n.drawn === 0;
    default: return false;
  }
}

const BADGES: Record<string, Record<string, string>> = { status: { open: 'blue', closed: 'green', 'in progress': 'gold' }, priority: { high: 'red', medium: 'gold', low: 'blue' } };

/** A table's columns (configured and visible, else the first record's fields) and its first rows, newest first where the viewer orders so. */
function tableOf(view: ReportView, c: TabConfiguration, records: RecordDto[]): TableModel {
  const configured = (c.columns ?? []).map((col, i) => ({ ...col, order: col.order ?? i })).filter((col) => col.visible !== false && col.name).sort((a, b) => a.order - b.order);
  const fields = configured.length ? configured : records.length ? recordFields(records[0]).map((name) => ({ name, format: undefined, currency: undefined })) : [];
  const ordered = newestFirst(view, records).slice(0, TABLE_ROWS_KEPT);
  const rows = ordered.map((r) => [
    ...fields.map((f): TableCell => {
      const value = fieldValueOf(r, f.name);
      if (isEmptyValue(value)) return { text: '-' };
      const badge = !f.format || f.format === 'auto' ? BADGES[f.name.toLowerCase()]?.[String(value).toLowerCase()] ?? (BADGES[f.name.toLowerCase()] ? 'gray' : undefined) : undefined;
      const shown = formatValue(f.name, value, typedFormat(view.typing, f.name, { format: f.format, currency: f.currency }));
      return { text: shown.text, numeric: shown.numeric, ...(badge ? { badge } : {}) };
    }),
    { text: formatValue('lastUpdated', r.lastUpdated, { format: 'date' }).text },
  ]);
  return { kind: 'table', columns: [...fields.map((f) => view.label(f.name)), 'Last Updated'], rows, total: records.length };
}

const fieldValueOf = (r: RecordDto, field: string) => fieldValue(r.data, field);

/** The viewer's default order: newest first by the time field (else the time received) when the source has one or is append-only; else server order. */
function newestFirst(view: ReportView, records: RecordDto[]): RecordDto[] {
  const ds = view.head.dataSource;
  if (!ds || (!ds.timeField && !ds.appendOnly)) return records;
  const timeOf = recordTimeReader(ds.timeField || null, ds.dateOrder);
  return records.map((r, i) => ({ r, i, t: timeOf(r.data, Date.parse(r.lastUpdated)) })).sort((a, b) => b.t - a.t || a.i - b.i).map((k) => k.r);
}

const UNASSIGNED = 'Unassigned';
const titles = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** A bucket board: records grouped by the bucket key in the board's order, each group's first cards with their display keys. */
function boardOf(view: ReportView, c: TabConfiguration, records: RecordDto[]): BoardModel {
  const key = c.bucketKey || c.buckets?.[0]?.key || '';
  const groups = new Map<string, RecordDto[]>();
  if (key) {
    for (const r of records) {
      const v = fieldValue(r.data, key);
      const name = isEmptyValue(v) ? UNASSIGNED : typeof v === 'object' ? JSON.stringify(v) : String(v);
      let list = groups.get(name);
      if (!list) groups.set(name, (list = []));
      list.push(r);
    }
  }
  const order = c.bucketOrder ?? 'label';
  const rank = new Map(order === 'custom' ? (c.bucketGroups ?? []).map((t, i) => [t, i]) : []);
  const byTitle = (a: string, b: string) => Number(a === UNASSIGNED) - Number(b === UNASSIGNED) || titles.compare(a, b);
  const sorted = [...groups].sort(([a, x], [b, y]) => {
    if (order === 'count' && x.length !== y.length) return y.length - x.length;
    const ra = rank.get(a) ?? Infinity;
    const rb = rank.get(b) ?? Infinity;
    return ra !== rb ? ra - rb : byTitle(a, b);
  });
  const keys = c.displayKeys ?? [];
  const rules = c.highlightRules ?? [];
  return {
    kind: 'bucket',
    totalGroups: sorted.length,
    groups: sorted.slice(0, BOARD_GROUPS_KEPT).map(([title, list]) => ({
      title,
      count: list.length,
      cards: list.slice(0, BOARD_CARDS_KEPT).map((r) => {
        const hit = rules.find((rule) => rule.key && String(fieldValue(r.data, rule.key) ?? '') === rule.value);
        const lines: [string, string][] = keys.length
          ? keys.map((k) => {
            const v = fieldValue(r.data, k);
            return [view.label(k), isEmptyValue(v) ? 'N/A' : formatValue(k, v, typedFormat(view.typing, k)).text];
          })
          : [['Record ID', r.recordId]];
        return { color: hit?.color.toLowerCase() ?? 'gray', lines };
      }),
    })),
  };
}

/** The KPI tiles' and gauges' numbers as text, in reading order. */
export function kpisOf(models: WidgetModel[]): ReportKpi[] {
  const out: ReportKpi[] = [];
  for (const m of [...models].sort((a, b) => a.layout.y - b.layout.y || a.layout.x - b.layout.x)) {
    if (m.kind === 'kpi') out.push({ title: m.title, value: m.text, ...(m.change ? { change: m.change.text } : {}) });
    if (m.kind === 'gauge') out.push({ title: m.title, value: `${m.text} (${m.percentText})` });
  }
  return out;
}
