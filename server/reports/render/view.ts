import { compileChoices, lockedFilterLabel } from '@common/filterBar';
import type { PublicTabDto, Widget } from '@common/schemas/dashboard';
import type { PublicDashboardResponse } from '@common/schemas/publicView';
import type { RecordDto } from '@common/schemas/records/record';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { fieldLabel } from '@common/formats';
import { rangeLabel, resolveRange } from '@common/time/timeRanges';
import { NO_TYPING, type FieldTyping } from '@common/types/fieldTyping';
import type { AppContext } from '../../core';
import { NotFoundError } from '../../core';
import { viewCacheOf } from '../../publicView';

/** What a report draws of a dashboard's tab: the records a share link locking the report's filters opens, as the viewer reads them. */
export interface ReportView {
  head: Pick<PublicDashboardResponse, 'dashboard' | 'dataSource'>;
  tab: PublicTabDto;
  /** The records matching the locked filters (what widgets that ignore the filter bar read). */
  locked: RecordDto[];
  /** Those the filter bar narrows them to as a viewer first opens the dashboard (each filter at its default). */
  records: RecordDto[];
  typing: FieldTyping;
  timeField: string | null;
  label: (field: string | undefined) => string;
  /** The locked filters as chips read them ("Region = EU"). */
  lockedText: string[];
  /** The filter bar's defaults that narrow ("Created: Last 7 days"). */
  barText: string[];
  truncated: boolean;
  now: number;
}

/**
 * Loads the tab (the first without `tabId`) of a dashboard, published or a draft, through the
 * locked view share links use (server/publicView: from the held source, else the database), then
 * narrows it by the dashboard's filter bar at its defaults, as a viewer opening it sees it.
 */
export async function loadReportView(app: AppContext, dashboardId: string, tabId: string | undefined, filters: WidgetFilter[], now: number): Promise<ReportView> {
  const view = await viewCacheOf(app).lockedView(dashboardId, filters);
  const tab = tabId ? view.tabs.find((t) => t.id === tabId) : view.tabs[0];
  if (!tab) throw NotFoundError(tabId ? `Tab ${tabId} of this dashboard` : 'A tab of this dashboard');
  const ds = view.dataSource;
  const typing: FieldTyping = ds ? { fieldTypes: ds.fieldTypes, dateOrder: ds.dateOrder } : NO_TYPING;
  const labels = ds?.keyMappings ?? view.dashboard.configuration.keyMappings;
  const label = (field: string | undefined) => (field ? fieldLabel(field, labels) : '');
  const bar = view.dashboard.configuration.filters ?? [];
  const test = compileChoices(bar, {}, typing, now);
  const barText = bar.filter((f) => f.kind === 'date' && f.range.kind !== 'all').map((f) => `${f.label || label(f.field)}: ${rangeLabel((f as { range: Parameters<typeof rangeLabel>[0] }).range)}`);
  return {
    head: { dashboard: view.dashboard, dataSource: ds },
    tab,
    locked: view.records,
    records: test ? view.records.filter((r) => test(r.data)) : view.records,
    typing,
    timeField: ds?.timeField ?? null,
    label,
    lockedText: filters.map((f) => lockedFilterLabel(f, (x) => label(x))),
    barText,
    truncated: view.truncated,
    now,
  };
}

/** The records a widget reads: the filter bar's, unless it ignores the bar. */
export const widgetRecords = (view: ReportView, widget: Pick<Widget, 'ignoreDashboardFilters'>): RecordDto[] => (widget.ignoreDashboardFilters ? view.locked : view.records);

/** A fixed range's dates in words, for the header ("Mar 1, 2026 – Mar 31, 2026"). */
export function windowText(range: Parameters<typeof resolveRange>[0], now: number, timeZone: string): string {
  const w = resolveRange(range, now);
  const f = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone });
  return w.from === null || w.to === null ? rangeLabel(range) : `${f.format(w.from)} – ${f.format(w.to - 1)}`;
}
