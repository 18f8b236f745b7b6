import { Widget, type Widget as WidgetT } from '@common/schemas/dashboard';
import { CUSTOM_FIELD_PREFIX } from '@common/constants';
import { customFields } from '@common/cells';
import type { RecordDto } from '@common/schemas/records/record';
import { isChartWidgetType, type WidgetType } from '@common/schemas/widgets/widget';
import type { DateOrder } from '@common/schemas/dataSource';
import { dateFieldProblem } from '@common/widgets/dateField';
import { defaultSize, placeWidgets } from '@common/widgets/layout';
import { bucketKeyOf } from '../../public/viewer/buckets/bucketModel';
import { freeSpot } from './freeSpot';

export const TYPE_LABELS: Record<WidgetType, string> = {
  kpi: 'KPI tile', gauge: 'Gauge / progress to goal', bar: 'Bar chart', donut: 'Donut', line: 'Line / area over time', scatter: 'Scatter', table: 'Table', bucket: 'Bucket board',
};

/** A free widget id: w1, w2, … */
function nextId(widgets: WidgetT[]): string {
  const ids = new Set(widgets.map((w) => w.id));
  let n = widgets.length + 1;
  while (ids.has(`w${n}`)) n++;
  return `w${n}`;
}

/** A new configuration of a type: a line chart starts on the source's time field, when it has one. */
export const startConfiguration = (type: WidgetType, timeField?: string | null): WidgetT['configuration'] => (type === 'line' && timeField ? { dateField: timeField } : {});

const layoutsOf = (widgets: WidgetT[]) => placeWidgets(widgets).map((w) => w.layout);

/** A new widget of a type, in the first free place on the grid; charts start incomplete until a field is picked. */
export function newWidget(type: WidgetType, widgets: WidgetT[], timeField?: string | null): WidgetT {
  return { id: nextId(widgets), name: TYPE_LABELS[type], type, visible: true, configuration: startConfiguration(type, timeField), layout: freeSpot(layoutsOf(widgets), defaultSize(type)) };
}

/** A copy of the same size in the first free place, named "<name> (copy)". */
export function duplicateWidget(widget: WidgetT, widgets: WidgetT[]): WidgetT {
  const size = widget.layout ?? defaultSize(widget.type);
  return { ...structuredClone(widget), id: nextId(widgets), name: `${widget.name || widget.id} (copy)`, layout: freeSpot(layoutsOf(widgets), size) };
}

/**
 * A widget's problems by path ("configuration.groupField" → "Pick a field to group by"): what the
 * shared schema refuses, a chart's date field whose preview values read as no dates, and a bucket board without its bucket key (the viewer would show only "No
 * Bucket Key Configured"; the schema accepts it, as it does for tabs).
 */
export function widgetProblems(widget: WidgetT, preview?: { records: Iterable<{ data: Record<string, unknown> }>; dateOrder?: DateOrder }): Record<string, string> {
  const parsed = Widget.safeParse(widget);
  const out: Record<string, string> = {};
  if (!parsed.success) for (const i of parsed.error.issues) out[i.path.join('.')] ??= i.message;
  // A chart's date field must hold dates: refused here, before saving, with the preview records' reason.
  const dateField = (widget.configuration as { dateField?: unknown } | undefined)?.dateField;
  if (preview && isChartWidgetType(widget.type) && typeof dateField === 'string' && dateField) {
    const problem = dateFieldProblem(preview.records, dateField, preview.dateOrder);
    if (problem) out['configuration.dateField'] ??= problem;
  }
  if (widget.type === 'bucket' && !bucketKeyOf(widget.configuration ?? {})) out['configuration.bucketKey'] ??= 'Pick a field to bucket by';
  return out;
}

/** The fields of the records (data keys and custom_<id> fields), in first-seen order. */
export function recordFields(records: RecordDto[]): string[] {
  const seen = new Set<string>();
  for (const r of records.slice(0, 200)) {
    for (const k of r.keyOrder?.length ? r.keyOrder : Object.keys(r.data)) if (k !== 'custom_fields') seen.add(k);
    for (const f of customFields(r.data)) seen.add(`${CUSTOM_FIELD_PREFIX}${f.id}`);
  }
  return [...seen];
}
