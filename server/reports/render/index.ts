/**
 * The report renderer: a dashboard's tab drawn on the server, without a browser, as a PNG, a PDF
 * and a CSV, from the records a share link locking the report's filters opens and by the viewer's
 * own aggregation code (common/widgets). See README.md beside this file.
 */
import { csvFileName } from '@common/csv';
import type { WidgetFilter } from '@common/schemas/widgets/widget';
import { isChartWidgetType } from '@common/schemas/widgets/widget';
import { rangeLabel, type TimeRange } from '@common/time/timeRanges';
import type { AppContext } from '../../core';
import { ValidationError } from '../../core';
import { reportCsv } from './csv';
import { kpisOf, widgetModels, type ReportKpi } from './model';
import { reportPdf, type PaperSize } from './pdf';
import { pictureSvg, rasterise, type Heading } from './picture';
import { reportTheme } from './theme';
import { loadReportView } from './view';

export type ReportFormat = 'png' | 'pdf' | 'csv';
export type { ReportKpi, PaperSize };

/** The picture's width: default, least and most (px). */
export const REPORT_WIDTH = { default: 1440, min: 480, max: 3840 } as const;

export interface RenderOptions {
  dashboardId: string;
  /** The tab drawn (default: the first). */
  tabId?: string;
  /** Locked filters, as on share links: every file holds only the matching records. */
  filters: WidgetFilter[];
  formats: ReportFormat[];
  /** The picture's width in px (default 1440). */
  width?: number;
  /** The picture's theme (the PDF is always light: it is printed). */
  theme?: 'light' | 'dark';
  /** The zone "as of" is written in (IANA name, default UTC). Buckets and dates inside the widgets follow the server's zone, as the viewer's follow the browser's. */
  timezone?: string;
  /** The PDF's paper, landscape (default A4). */
  paper?: PaperSize;
  /** The moment drawn (default: now): relative ranges end here. */
  now?: number;
}

export interface ReportFile {
  format: ReportFormat;
  /** `<dashboard name>.png|pdf|csv`, safe for any name. */
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export interface RenderedReport {
  dashboard: { id: string; name: string };
  tab: { id: string; name: string };
  /** The time range the report shows, in words ("Last 7 days"; "All time"). */
  rangeText: string;
  /** When it was drawn (ISO 8601 UTC). */
  at: string;
  /** The KPI tiles' (and gauges') numbers as text, in reading order: an email's body, a chat message. */
  kpis: ReportKpi[];
  files: ReportFile[];
  /** The SVG the PNG was rasterised from (when a PNG was asked for): a preview, and what tests read. */
  svg?: string;
}

const CONTENT_TYPES: Record<ReportFormat, string> = { png: 'image/png', pdf: 'application/pdf', csv: 'text/csv; charset=utf-8' };

/** Draws a dashboard's tab in the formats asked, each holding only the records the locked filters let through. */
export async function renderReport(app: AppContext, o: RenderOptions): Promise<RenderedReport> {
  const now = o.now ?? Date.now();
  const timeZone = o.timezone ?? 'UTC';
  const asOf = asOfText(now, timeZone);
  const width = Math.round(Math.min(REPORT_WIDTH.max, Math.max(REPORT_WIDTH.min, o.width ?? REPORT_WIDTH.default)));
  const view = await loadReportView(app, o.dashboardId, o.tabId, o.filters, now);
  const models = await widgetModels(view);
  const rangeText = view.barText.length ? view.barText.join(', ') : widgetRanges(view.tab.widgets);
  const name = view.head.dashboard.name;
  const heading: Heading = {
    title: name,
    subtitle: [view.tab.name, rangeText, `as of ${asOf}`, view.truncated ? 'the first records of a very large source' : ''].filter(Boolean).join(' · '),
    filters: view.lockedText,
  };
  const files: ReportFile[] = [];
  let svg: string | undefined;
  const file = (format: ReportFormat, bytes: Buffer): ReportFile => ({ format, filename: csvFileName(name).replace(/\.csv$/, `.${format}`), contentType: CONTENT_TYPES[format], bytes });
  for (const format of new Set(o.formats)) {
    if (format === 'png') {
      const picture = await pictureSvg(models, heading, width, reportTheme(o.theme === 'dark'));
      svg = picture.svg;
      files.push(file('png', await rasterise(picture.svg)));
    } else if (format === 'pdf') {
      files.push(file('pdf', await reportPdf(models, heading, { paper: o.paper, at: new Date(now) })));
    } else {
      files.push(file('csv', await reportCsv(app, o.dashboardId, view.tab.id, o.filters)));
    }
  }
  return {
    dashboard: { id: view.head.dashboard.id, name },
    tab: { id: view.tab.id, name: view.tab.name },
    rangeText,
    at: new Date(now).toISOString(),
    kpis: kpisOf(models),
    files,
    ...(svg !== undefined ? { svg } : {}),
  };
}

/** "Nov 28, 2026, 14:05 UTC" in the report's zone; an unknown zone is refused with its name. */
function asOfText(now: number, timeZone: string): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone, timeZoneName: 'short' });
  } catch {
    throw ValidationError(`Unknown time zone "${timeZone}": give an IANA name such as Europe/Berlin`);
  }
  return format.format(now);
}

/** The range the tab's charts show: theirs when they share one, "All time" when none narrows, else the ranges listed. */
function widgetRanges(widgets: { type: string; visible?: boolean; configuration?: unknown }[]): string {
  const labels = new Set<string>();
  for (const w of widgets) {
    if (w.visible === false || !isChartWidgetType(w.type)) continue;
    const range = (w.configuration as { range?: TimeRange } | undefined)?.range;
    if (range && range.kind !== 'all') labels.add(rangeLabel(range));
  }
  return labels.size ? [...labels].join(', ') : 'All time';
}
