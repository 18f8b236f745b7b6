import { chartSvg } from './charts';
import { textWidth } from './fonts';
import type { TableModel, WidgetModel } from './model';
import { esc, r, rect, text, wrap } from './svgParts';
import type { ReportTheme } from './theme';

/**
 * One widget as SVG in its box: the card, its title and its content — a KPI's number (coloured by
 * its thresholds) with its change and caption, a gauge's dial, a chart by ECharts, a table's first
 * rows, a bucket board's first cards. The picture places every widget; a PDF page those of its rows.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const TITLE = 16;
const HEAD = 46;
const PAD = 12;
/** Rows of a table drawn in a widget's box: 28 px each, the header one too. */
export const TABLE_ROW = 28;

/** A path too long for svg-to-pdfkit (thousands of scatter points), drawn by pdfkit itself at (x, y). */
export interface NativePath {
  d: string;
  fill: string;
  opacity: number;
  x: number;
  y: number;
}
/** Path data longer than this goes to pdfkit's own path drawing (`native`). */
const NATIVE_PATH_CHARS = 20_000;

/** The widget's card as SVG; with `native` (the PDF), a chart's very long paths are handed there instead. */
export function tileSvg(m: WidgetModel, box: Box, theme: ReportTheme, id: string, native?: NativePath[]): string {
  const parts = [
    rect(box.x, box.y, box.w, box.h, theme.card, `rx="8" stroke="${theme.border}"`),
    text(box.x + PAD + 4, box.y + 29, m.title, { size: TITLE, color: theme.text, bold: true, max: box.w - 2 * PAD - 8 }),
    `<line x1="${r(box.x)}" y1="${r(box.y + HEAD)}" x2="${r(box.x + box.w)}" y2="${r(box.y + HEAD)}" stroke="${theme.border}"/>`,
  ];
  const body: Box = { x: box.x + PAD, y: box.y + HEAD + PAD, w: box.w - 2 * PAD, h: box.h - HEAD - 2 * PAD };
  parts.push(`<g data-widget="${esc(m.id)}" data-kind="${m.kind}">${bodySvg(m, body, theme, id, native)}</g>`);
  return parts.join('');
}

function bodySvg(m: WidgetModel, b: Box, theme: ReportTheme, id: string, native?: NativePath[]): string {
  switch (m.kind) {
    case 'kpi': return kpiSvg(m, b, theme);
    case 'gauge': return gaugeSvg(m, b, theme);
    case 'chart': {
      if (m.empty) return emptySvg(b, theme, 'No data for this range');
      let chart = chartSvg(m.numbers, b.w, b.h, theme, id, native ? 'rect' : 'circle');
      if (native) {
        chart = chart.replace(/<path d="([^"]+)" fill="([^"]+)"(?: fill-opacity="([\d.]+)")?[^>]*><\/path>/g, (all, d: string, fill: string, opacity?: string) => {
          if (d.length < NATIVE_PATH_CHARS) return all;
          native.push({ d, fill, opacity: opacity ? Number(opacity) : 1, x: b.x, y: b.y });
          return '';
        });
      }
      // The chart's own <svg> placed in the box.
      return chart.replace(/^<svg width="(\d+)" height="(\d+)"/, `<svg x="${r(b.x)}" y="${r(b.y)}" width="$1" height="$2"`);
    }
    case 'table': return tableSvg(m, b, theme, tableRowsIn(b.h + HEAD + 2 * PAD), 0).svg;
    case 'bucket': return boardSvg(m, b, theme);
    case 'problem': return text(b.x, b.y + 20, `Incomplete widget: ${m.message}`, { size: 13, color: theme.orange, max: b.w });
  }
}

const emptySvg = (b: Box, theme: ReportTheme, what: string) => text(b.x + b.w / 2, b.y + b.h / 2, what, { size: 14, color: theme.textSecondary, anchor: 'middle', max: b.w });

function kpiSvg(m: Extract<WidgetModel, { kind: 'kpi' }>, b: Box, theme: ReportTheme): string {
  const spark = m.numbers.spark && m.numbers.spark.rows.length > 1 ? m.numbers.spark.rows : null;
  const color = m.color ? theme[m.color] : theme.text;
  // The number as large as the tile allows (as the viewer sizes it): its share of the height, never wider than the tile.
  const share = 0.5 - (m.change ? 0.1 : 0) - (spark ? 0.14 : 0);
  let size = Math.max(24, Math.min(120, b.h * share));
  const width = textWidth(m.text, size, true);
  if (width > b.w) size = Math.max(16, (size * b.w) / width);
  const lines: string[] = [];
  let y = b.y + size * 0.95;
  lines.push(`<text data-kpi-value="${esc(String(m.numbers.value ?? ''))}" x="${r(b.x)}" y="${r(y)}" font-family="DejaVu Sans" font-size="${r(size)}" font-weight="bold" fill="${color}">${esc(m.text)}</text>`);
  const small = Math.max(12, Math.min(16, b.h * 0.11));
  if (m.change) {
    y += small * 1.6;
    const c = m.change.trend === 'same' ? theme.textSecondary : m.change.trend === 'better' ? theme.green : theme.red;
    lines.push(text(b.x, y, m.change.text, { size: small, color: c, max: b.w }));
  }
  for (const line of wrap(m.caption, b.w, small, 2)) {
    y += small * 1.35;
    lines.push(text(b.x, y, line, { size: small, color: theme.textSecondary }));
  }
  if (spark) {
    const h = Math.min(32, b.y + b.h - y - 8);
    if (h > 8) {
      const values = spark.map((p) => p.value);
      const min = Math.min(...values);
      const span = Math.max(...values) - min || 1;
      const points = values.map((v, i) => `${r(b.x + (i / (values.length - 1)) * b.w)},${r(y + 8 + 2 + (1 - (v - min) / span) * (h - 4))}`).join(' ');
      lines.push(`<polyline points="${points}" fill="none" stroke="${m.color ? theme[m.color] : theme.primary}" stroke-width="2" stroke-linejoin="round"/>`);
    }
  }
  // Vertically centred in the tile, as the viewer centres it.
  const used = y - b.y + (spark ? 40 : 0);
  const shift = Math.max(0, (b.h - used) / 2);
  return `<g transform="translate(0 ${r(shift)})">${lines.join('')}</g>`;
}

function gaugeSvg(m: Extract<WidgetModel, { kind: 'gauge' }>, b: Box, theme: ReportTheme): string {
  const percent = m.numbers.percent;
  const reached = percent !== null && percent >= 100;
  const color = reached ? theme.green : theme.primary;
  const filled = percent === null ? 0 : Math.max(0, Math.min(100, percent));
  const out: string[] = [];
  const small = 13;
  if (m.numbers.config.style === 'gauge') {
    const size = Math.max(40, Math.min(b.w, b.h - 2 * small * 1.6 - 4, 160));
    const cx = b.x + b.w / 2;
    const cy = b.y + size / 2;
    const radius = size / 2 - 5;
    // A dial open at the bottom (75°), filled clockwise from its lower left.
    const gap = 75;
    const start = 90 + gap / 2;
    const sweep = 360 - gap;
    out.push(arc(cx, cy, radius, start, sweep, theme.fillSecondary, 8));
    if (filled > 0) out.push(arc(cx, cy, radius, start, (sweep * filled) / 100, color, 8));
    out.push(text(cx, cy + 7, m.text, { size: Math.min(22, size / 5), color: theme.text, bold: true, anchor: 'middle', max: radius * 1.6 }));
    out.push(text(cx, b.y + size + small + 2, m.percentText, { size: small + 1, color: reached ? theme.green : theme.text, bold: true, anchor: 'middle', max: b.w }));
    out.push(text(cx, b.y + size + 2 * small * 1.5 + 2, m.caption, { size: small, color: theme.textSecondary, anchor: 'middle', max: b.w }));
    return out.join('');
  }
  let y = b.y + Math.max(0, (b.h - 100) / 2) + 30;
  out.push(text(b.x, y, m.text, { size: 30, color: theme.text, bold: true, max: b.w }));
  y += 14;
  out.push(rect(b.x, y, b.w, 10, theme.fillSecondary, 'rx="5"'));
  if (filled > 0) out.push(rect(b.x, y, (b.w * filled) / 100, 10, color, 'rx="5"'));
  y += 30;
  out.push(text(b.x, y, m.percentText, { size: small + 1, color: reached ? theme.green : theme.text, bold: true, max: b.w }));
  out.push(text(b.x, y + small * 1.6, m.caption, { size: small, color: theme.textSecondary, max: b.w }));
  return out.join('');
}

function arc(cx: number, cy: number, radius: number, fromDeg: number, sweepDeg: number, color: string, width: number): string {
  const p = (deg: number) => [cx + radius * Math.cos((deg * Math.PI) / 180), cy + radius * Math.sin((deg * Math.PI) / 180)];
  const [x1, y1] = p(fromDeg);
  const [x2, y2] = p(fromDeg + Math.min(sweepDeg, 359.9));
  return `<path d="M${r(x1)} ${r(y1)}A${r(radius)} ${r(radius)} 0 ${sweepDeg > 180 ? 1 : 0} 1 ${r(x2)} ${r(y2)}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round"/>`;
}

/** Rows of a table a widget's box `h` px tall shows (its header row and the note under the rows take two). */
export const tableRowsIn = (h: number): number => Math.max(1, Math.floor((h - HEAD - 2 * PAD) / TABLE_ROW) - 2);

/** Column widths sharing `w`: by the longest text of each column (header and rows), at least 60 px. */
export function columnWidths(m: TableModel, w: number, size: number): number[] {
  const want = m.columns.map((c, i) => Math.min(320, Math.max(60, textWidth(c, size, true) + 16, ...m.rows.slice(0, 50).map((row) => textWidth(row[i]?.text ?? '', size) + 16))));
  const total = want.reduce((a, b) => a + b, 0);
  return want.map((x) => (x * w) / total);
}

/**
 * A table's header and `count` rows from `from`, in a box; `more` says how many rows were left out
 * (the note under the rows: "First 12 of 1,024 rows — the CSV holds them all").
 */
export function tableSvg(m: Extract<WidgetModel, { kind: 'table' }>, b: Box, theme: ReportTheme, count: number, from: number, size = 12): { svg: string; shown: number } {
  const widths = columnWidths(m, b.w, size);
  const out: string[] = [rect(b.x, b.y, b.w, TABLE_ROW, theme.headerFill)];
  let x = b.x;
  m.columns.forEach((c, i) => {
    out.push(text(x + 8, b.y + 18, c, { size, color: theme.text, bold: true, max: widths[i] - 12 }));
    x += widths[i];
  });
  const rows = m.rows.slice(from, from + count);
  rows.forEach((row, j) => {
    const y = b.y + TABLE_ROW * (j + 1);
    out.push(`<line x1="${r(b.x)}" y1="${r(y)}" x2="${r(b.x + b.w)}" y2="${r(y)}" stroke="${theme.border}"/>`);
    let cx = b.x;
    row.forEach((cell, i) => {
      const max = widths[i] - 14;
      if (cell.badge) {
        const tag = theme.tags[cell.badge] ?? theme.tags.gray;
        const tw = Math.min(max, textWidth(cell.text, size - 1) + 12);
        out.push(rect(cx + 6, y + 5, tw, 18, tag.fill, `rx="4" stroke="${tag.text}" stroke-opacity="0.35"`));
        out.push(text(cx + 12, y + 18, cell.text, { size: size - 1, color: tag.text, max: tw - 10 }));
      } else {
        out.push(text(cell.numeric ? cx + widths[i] - 8 : cx + 8, y + 18, cell.text, { size, color: cell.text === '-' ? theme.textSecondary : theme.text, anchor: cell.numeric ? 'end' : 'start', max }));
      }
      cx += widths[i];
    });
  });
  const end = from + rows.length;
  if (m.total > end || from > 0 || m.total === 0) {
    const note = m.total === 0 ? 'No records' : `Rows ${(from + 1).toLocaleString('en-US')}–${end.toLocaleString('en-US')} of ${m.total.toLocaleString('en-US')}${m.total > m.rows.length ? ' (the CSV holds them all)' : ''}`;
    out.push(text(b.x, b.y + TABLE_ROW * (rows.length + 1) + 18, note, { size: size - 1, color: theme.textSecondary, max: b.w }));
  }
  return { svg: out.join(''), shown: rows.length };
}

function boardSvg(m: Extract<WidgetModel, { kind: 'bucket' }>, b: Box, theme: ReportTheme): string {
  if (!m.groups.length) return emptySvg(b, theme, 'No records');
  const gap = 12;
  const columns = Math.max(1, Math.min(m.groups.length, Math.floor((b.w + gap) / (220 + gap))));
  const colW = (b.w - gap * (columns - 1)) / columns;
  const out: string[] = [];
  const size = 12;
  const line = 18;
  m.groups.slice(0, columns).forEach((g, i) => {
    const x = b.x + i * (colW + gap);
    out.push(rect(x, b.y, colW, b.h, theme.fillSecondary, 'rx="8"'));
    const count = g.count.toLocaleString('en-US');
    out.push(text(x + 10, b.y + 22, g.title, { size: 14, color: theme.text, bold: true, max: colW - 30 - textWidth(count, size) }));
    out.push(text(x + colW - 10, b.y + 22, count, { size, color: theme.textSecondary, anchor: 'end' }));
    let y = b.y + 34;
    let drawn = 0;
    for (const card of g.cards) {
      const h = card.lines.length * line + 12;
      if (y + h > b.y + b.h - 20) break;
      out.push(rect(x + 8, y, colW - 16, h, theme.card, `rx="6" stroke="${theme.highlight[card.color] ?? theme.highlight.gray}" stroke-width="2"`));
      card.lines.forEach(([k, v], j) => {
        const label = `${k}: `;
        const lw = Math.min(textWidth(label, size), (colW - 36) / 2);
        out.push(text(x + 18, y + 6 + line * (j + 1) - 4, label, { size, color: theme.textSecondary, max: lw }));
        out.push(text(x + 18 + lw, y + 6 + line * (j + 1) - 4, v, { size, color: theme.text, max: colW - 36 - lw }));
      });
      y += h + 8;
      drawn++;
    }
    if (g.count > drawn) out.push(text(x + 10, b.y + b.h - 8, `+ ${(g.count - drawn).toLocaleString('en-US')} more`, { size: 11, color: theme.textSecondary }));
  });
  if (m.totalGroups > columns) out.push(text(b.x + b.w, b.y - PAD - HEAD + 29, `${columns} of ${m.totalGroups} groups`, { size: 11, color: theme.textSecondary, anchor: 'end' }));
  return out.join('');
}
