import { FONT_FAMILY, fitText, textWidth } from './fonts';

/** Small pieces of SVG text every drawing of a report uses. */

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export interface TextOpts {
  size: number;
  color: string;
  bold?: boolean;
  anchor?: 'start' | 'middle' | 'end';
  /** Cut with "…" to this width. */
  max?: number;
}

/** One line of text with its baseline at y. */
export function text(x: number, y: number, content: string, o: TextOpts): string {
  const shown = o.max !== undefined ? fitText(content, o.max, o.size, o.bold) : content;
  if (!shown) return '';
  return `<text x="${r(x)}" y="${r(y)}" font-family="${FONT_FAMILY}" font-size="${o.size}"${o.bold ? ' font-weight="bold"' : ''}${o.anchor && o.anchor !== 'start' ? ` text-anchor="${o.anchor}"` : ''} fill="${o.color}">${esc(shown)}</text>`;
}

/** Words wrapped into at most `lines` lines of `max` px, the last cut with "…". */
export function wrap(content: string, max: number, size: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  const words = content.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const next = line ? `${line} ${words[i]}` : words[i];
    if (textWidth(next, size) <= max || !line) {
      line = next;
      continue;
    }
    out.push(line);
    line = words[i];
    if (out.length === lines - 1) {
      line = words.slice(i).join(' ');
      break;
    }
  }
  if (line) out.push(fitText(line, max, size));
  return out.slice(0, lines).map((l, i) => (i < lines - 1 ? fitText(l, max, size) : l));
}

export const rect = (x: number, y: number, w: number, h: number, fill: string, extra = ''): string => `<rect x="${r(x)}" y="${r(y)}" width="${r(Math.max(0, w))}" height="${r(Math.max(0, h))}" fill="${fill}"${extra ? ` ${extra}` : ''}/>`;

/** Coordinates to 2 decimals: shorter files, the same picture. */
export const r = (n: number): number => Math.round(n * 100) / 100;
