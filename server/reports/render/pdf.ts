import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { Slicer } from '../../core';
import { FONT_FILES } from './fonts';
import type { WidgetModel } from './model';
import { gridBoxes, headingSvg, type Heading } from './picture';
import { reportTheme } from './theme';
import { pdfColor, tablePages } from './pdfTable';
import { tableRowsIn, tileSvg, type Box, type NativePath } from './tiles';

/**
 * The PDF: vector, every word real text (titles, numbers, table cells, axis labels) in the report's
 * embedded font. Landscape pages (A4 or Letter): the heading on the first, the tab's grid scaled
 * to the page width and cut into pages between widgets (a widget taller than a page is shortened
 * to it), then each table whose rows did not fit its tile continues on pages of its own. Always in
 * the light theme: a PDF is printed.
 */

export type PaperSize = 'A4' | 'Letter';
const PAGE_MARGIN = 28;
/** The grid's width in px before it is scaled to the page (the picture's default width less its margins). */
const GRID_PX = 1392;

interface Placed {
  model: WidgetModel;
  box: Box;
}

export async function reportPdf(models: WidgetModel[], heading: Heading, opts: { paper?: PaperSize; at: Date }): Promise<Buffer> {
  const theme = reportTheme(false);
  const slicer = new Slicer();
  const doc = new PDFDocument({ size: opts.paper ?? 'A4', layout: 'landscape', margin: PAGE_MARGIN, autoFirstPage: false, info: { Title: heading.title, Subject: heading.subtitle, Creator: 'LiveDash', CreationDate: opts.at } });
  doc.registerFont('regular', FONT_FILES.regular);
  doc.registerFont('bold', FONT_FILES.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.addPage();
  const pageW = doc.page.width - 2 * PAGE_MARGIN;
  const pageH = doc.page.height - 2 * PAGE_MARGIN;
  const scale = pageW / GRID_PX;
  const draw = (svg: string, x: number, y: number, w: number, h: number) => {
    // The drawing's px become points at the page's scale (assumePt: no further px-to-pt factor).
    const svgText = `<svg xmlns="http://www.w3.org/2000/svg" width="${w * scale}" height="${h * scale}" viewBox="${x} ${y} ${w} ${h}">${svg}</svg>`;
    SVGtoPDF(doc as unknown as typeof PDFDocument, svgText, PAGE_MARGIN + x * scale, PAGE_MARGIN + (y - pageTopPx) * scale, {
      assumePt: true,
      fontCallback: (_family, bold) => (bold ? 'bold' : 'regular'),
    });
  };

  const head = headingSvg(heading, 0, 0, GRID_PX, theme);
  let pageTopPx = 0;
  draw(head.svg, 0, 0, GRID_PX, head.height);
  const { boxes } = gridBoxes(models, GRID_PX, head.height, 0);
  const pagePx = pageH / scale;
  const pending: Placed[] = models.map((model, i) => ({ model, box: boxes[i] })).sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const continued: { model: Extract<WidgetModel, { kind: 'table' }>; from: number }[] = [];
  let first = true;
  while (pending.length) {
    if (!first) {
      doc.addPage();
      pageTopPx = pending[0].box.y;
    }
    first = false;
    const bottom = pageTopPx + pagePx;
    const here = pending.filter((p) => p.box.y + p.box.h <= bottom || p.box.y === pageTopPx);
    for (const p of here) {
      pending.splice(pending.indexOf(p), 1);
      // A widget taller than a page is shortened to it.
      const box = { ...p.box, h: Math.min(p.box.h, bottom - p.box.y) };
      const native: NativePath[] = [];
      draw(tileSvg(p.model, box, theme, `p${doc.bufferedPageRange().count}w${p.model.id.replace(/\W/g, '')}`, native), box.x, box.y, box.w, box.h);
      for (const n of native) {
        doc.save().translate(PAGE_MARGIN + n.x * scale, PAGE_MARGIN + (n.y - pageTopPx) * scale).scale(scale);
        doc.path(n.d).fillColor(pdfColor(n.fill)[0], n.opacity).fill();
        doc.restore();
      }
      if (p.model.kind === 'table') {
        const shown = tableRowsIn(box.h);
        if (p.model.rows.length > shown) continued.push({ model: p.model, from: shown });
      }
      await slicer.tick();
    }
    // Nothing fits below what is drawn: the next page starts at the next widget.
    if (!here.length && pending.length) pageTopPx = pending[0].box.y;
  }

  // Tables go on over pages of their own, all columns across the page (drawn by pdfkit: hundreds of cells).
  for (const t of continued) {
    let from = t.from;
    while (from < t.model.rows.length) {
      doc.addPage();
      from = tablePages(doc, t.model, from, { x: PAGE_MARGIN, y: PAGE_MARGIN, w: pageW, h: pageH }, theme);
      await slicer.tick();
    }
  }
  doc.end();
  return ended;
}
