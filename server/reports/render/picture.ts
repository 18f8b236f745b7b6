import { renderAsync } from '@resvg/resvg-js';
import { GRID_COLUMNS, GRID_ROW_HEIGHT } from '@common/schemas/widgets/widget';
import { Slicer } from '../../core';
import { FONT_FAMILY, FONT_FILES } from './fonts';
import type { WidgetModel } from './model';
import { rect, text } from './svgParts';
import type { ReportTheme } from './theme';
import { tileSvg, type Box } from './tiles';

/**
 * The picture: the tab's grid drawn as one SVG — a header (the dashboard's name, the tab, the time
 * range, the locked filters) and each widget at its grid position — rasterised by resvg with the
 * report's font at the report's width.
 */

export const GAP = 16;
export const MARGIN = 24;

export interface Heading {
  title: string;
  /** Under the title: the tab, the time range, when. */
  subtitle: string;
  /** The locked filters, as chips read them. */
  filters: string[];
}

/** Where each widget's box lies on a grid `width` px wide starting at `top`. */
export function gridBoxes(models: WidgetModel[], width: number, top: number, left = MARGIN): { boxes: Box[]; bottom: number } {
  const column = (width - GAP * (GRID_COLUMNS - 1)) / GRID_COLUMNS;
  const boxes = models.map((m) => ({
    x: left + m.layout.x * (column + GAP),
    y: top + m.layout.y * (GRID_ROW_HEIGHT + GAP),
    w: m.layout.w * column + (m.layout.w - 1) * GAP,
    h: m.layout.h * GRID_ROW_HEIGHT + (m.layout.h - 1) * GAP,
  }));
  return { boxes, bottom: boxes.reduce((b, x) => Math.max(b, x.y + x.h), top) };
}

/** The heading as SVG across `width` px from (x, y); returns its height. */
export function headingSvg(h: Heading, x: number, y: number, width: number, theme: ReportTheme): { svg: string; height: number } {
  const parts = [
    text(x, y + 28, h.title, { size: 26, color: theme.text, bold: true, max: width }),
    text(x, y + 54, h.subtitle, { size: 14, color: theme.textSecondary, max: width }),
  ];
  let height = 66;
  if (h.filters.length) {
    parts.push(text(x, y + 80, `Filtered: ${h.filters.join(' · ')}`, { size: 13, color: theme.text, max: width }));
    height += 24;
  }
  return { svg: parts.join(''), height: height + 12 };
}

/** The whole picture as SVG text, `width` px wide (widgets drawn one by one, giving the event loop turns). */
export async function pictureSvg(models: WidgetModel[], heading: Heading, width: number, theme: ReportTheme): Promise<{ svg: string; height: number }> {
  const slicer = new Slicer();
  const head = headingSvg(heading, MARGIN, MARGIN, width - 2 * MARGIN, theme);
  const top = MARGIN + head.height;
  const { boxes, bottom } = gridBoxes(models, width - 2 * MARGIN, top);
  const height = Math.ceil(Math.max(bottom, top + 40) + MARGIN);
  const tiles: string[] = [];
  for (let i = 0; i < models.length; i++) {
    tiles.push(tileSvg(models[i], boxes[i], theme, `w${i}`));
    await slicer.tick();
  }
  if (!models.length) tiles.push(text(MARGIN, top + 24, 'This tab has no visible widgets.', { size: 14, color: theme.textSecondary }));
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT_FAMILY}">`,
    rect(0, 0, width, height, theme.page),
    head.svg,
    ...tiles,
    '</svg>',
  ].join('');
  return { svg, height };
}

/** The SVG rasterised at its own size (resvg on its own thread: the event loop goes on meanwhile). */
export async function rasterise(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, {
    font: { fontFiles: [FONT_FILES.regular, FONT_FILES.bold], loadSystemFonts: false, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
    shapeRendering: 2,
    textRendering: 1,
  });
  return image.asPng();
}
