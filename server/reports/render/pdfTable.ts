import { fitText, textWidth } from './fonts';
import type { TableModel } from './model';
import type { ReportTheme } from './theme';
import { columnWidths, type Box } from './tiles';

/** A CSS colour as pdfkit takes it: hex as it is, rgba() as its channels and opacity. */
export function pdfColor(css: string): [string | [number, number, number], number] {
  const m = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(css);
  return m ? [[Number(m[1]), Number(m[2]), Number(m[3])], m[4] === undefined ? 1 : Number(m[4])] : [css, 1];
}

/** A table's rows continued on a PDF page, drawn by pdfkit itself (real text, no SVG to parse for hundreds of cells). */

const SIZE = 9;
const ROW = 16;

/** Draws the title and as many rows from `from` as fit in `box` (points); returns the next row to draw. */
export function tablePages(doc: PDFKit.PDFDocument, m: TableModel & { title: string }, from: number, box: Box, theme: ReportTheme): number {
  const widths = columnWidths(m, box.w, SIZE);
  const text = (t: string, x: number, y: number, o: { bold?: boolean; color?: string; max: number; right?: boolean; size?: number }) => {
    const size = o.size ?? SIZE;
    const shown = fitText(t, o.max, size, o.bold);
    if (!shown) return;
    const left = o.right ? x + o.max - textWidth(shown, size, o.bold) : x;
    doc.font(o.bold ? 'bold' : 'regular').fontSize(size).fillColor(...pdfColor(o.color ?? theme.text)).text(shown, left, y, { lineBreak: false });
  };
  text(`${m.title} (continued)`, box.x, box.y, { bold: true, size: 14, max: box.w });
  let y = box.y + 26;
  doc.rect(box.x, y, box.w, ROW).fillColor(...pdfColor(theme.headerFill)).fill();
  let x = box.x;
  m.columns.forEach((c, i) => {
    text(c, x + 4, y + 4, { bold: true, max: widths[i] - 8 });
    x += widths[i];
  });
  const rows = Math.max(1, Math.floor((box.y + box.h - y - 2 * ROW) / ROW));
  const end = Math.min(m.rows.length, from + rows);
  for (let j = from; j < end; j++) {
    y += ROW;
    doc.moveTo(box.x, y).lineTo(box.x + box.w, y).lineWidth(0.5).strokeColor(...pdfColor(theme.border)).stroke();
    x = box.x;
    m.rows[j].forEach((cell, i) => {
      const color = cell.badge ? (theme.tags[cell.badge] ?? theme.tags.gray).text : cell.text === '-' ? theme.textSecondary : theme.text;
      text(cell.text, x + 4, y + 4, { color, max: widths[i] - 8, right: cell.numeric });
      x += widths[i];
    });
  }
  const note = `Rows ${(from + 1).toLocaleString('en-US')}–${end.toLocaleString('en-US')} of ${m.total.toLocaleString('en-US')}${m.total > m.rows.length && end === m.rows.length ? ` (the first ${m.rows.length.toLocaleString('en-US')}; the CSV holds them all)` : ''}`;
  text(note, box.x, y + ROW + 6, { color: theme.textSecondary, max: box.w });
  return end;
}
