import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';

/**
 * The report's one font, shipped as an npm package (DejaVu Sans: Latin, Greek, Cyrillic, arrows and
 * the ▲▼ of a KPI's change), so a report reads the same on every server whatever fonts it has. The
 * picture (resvg), the PDF (pdfkit) and the charts' layout (ECharts measuring its labels, through
 * fontkit, pdfkit's font engine) all use these files.
 */
const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

export const FONT_FAMILY = 'DejaVu Sans';
export const FONT_FILES = { regular: path.join(dir, 'DejaVuSans.ttf'), bold: path.join(dir, 'DejaVuSans-Bold.ttf') } as const;

/** Each font's glyph advances by code point, in em: a text's width is their sum (kerning left out: at most a pixel a word). */
const advances = { regular: new Map<number, number>(), bold: new Map<number, number>() };
let fonts: { regular: fontkit.Font; bold: fontkit.Font } | null = null;

/** The width in pixels of a text in the report's font at `size` px (bold or not). */
export function textWidth(text: string, size: number, bold = false): number {
  fonts ??= { regular: fontkit.openSync(FONT_FILES.regular), bold: fontkit.openSync(FONT_FILES.bold) };
  const font = bold ? fonts.bold : fonts.regular;
  const known = bold ? advances.bold : advances.regular;
  let em = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    let a = known.get(cp);
    if (a === undefined) known.set(cp, (a = font.glyphForCodePoint(cp).advanceWidth / font.unitsPerEm));
    em += a;
  }
  return em * size;
}

/** A CSS font shorthand as ECharts writes it ("bold 12px sans-serif"): its size in px and weight. */
export function parseFont(font: string | undefined): { size: number; bold: boolean } {
  const size = /(\d+(?:\.\d+)?)px/.exec(font ?? '');
  return { size: size ? Number(size[1]) : 12, bold: /\b(bold|[6-9]00)\b/.test(font ?? '') };
}

/** A text cut with "…" to fit `max` pixels. */
export function fitText(text: string, max: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= max) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (textWidth(`${text.slice(0, mid)}…`, size, bold) <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo)}…`;
}
