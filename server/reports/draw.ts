import type { ReportFormat } from '@common/schemas/report';
import type { AppContext } from '../core';
import type { DrawnFile } from './files';

/** A report drawn now: what its messages say and the files they carry. */
export interface DrawnReport {
  dashboardName: string;
  rangeText: string;
  kpis: { title: string; value: string }[];
  files: DrawnFile[];
}

/** What is drawn: a tab of a dashboard through locked filters, in these formats, at this width, theme and time zone. */
export interface DrawSettings {
  dashboardId: string;
  tabId: string | null;
  filters: import('@common/schemas/widgets/widget').WidgetFilter[];
  formats: ReportFormat[];
  width: number;
  theme: 'light' | 'dark';
  /** The PDF's paper (default A4). */
  paper?: 'A4' | 'Letter';
  timezone: string;
}

/**
 * Draws a report with the renderer (server/reports/render): the one seam between the room and its
 * drawing. The renderer (ECharts, resvg, pdfkit) is loaded on the first drawing, not at start: a
 * process that never draws a report starts as fast as before.
 */
export async function drawReport(app: AppContext, s: DrawSettings): Promise<DrawnReport> {
  const { renderReport } = await import('./render');
  const out = await renderReport(app, { dashboardId: s.dashboardId, tabId: s.tabId ?? undefined, filters: s.filters, formats: s.formats, width: s.width, theme: s.theme, timezone: s.timezone, ...(s.paper ? { paper: s.paper } : {}) });
  return {
    dashboardName: out.dashboard.name,
    rangeText: out.rangeText,
    kpis: out.kpis.map((k) => ({ title: String(k.title), value: String(k.value) })),
    files: out.files.map((f) => ({ format: f.format, filename: f.filename, contentType: f.contentType, bytes: Buffer.from(f.bytes) })),
  };
}
