import { OTHER_GROUP } from '../charts/groups';

/**
 * The colours widgets are drawn in, light and dark — by the live viewer (web/src/public/viewer/ui)
 * and by a report drawn on the server — so a report looks like the dashboard.
 */

/**
 * The viewer's colours: the values antd's default and dark algorithms give the app's theme (primary
 * #2563eb, secondary text at 62 % / 72 % so it reads at 4.5:1 or more), written out so the viewer
 * draws without antd. The viewer's CSS holds the same values as CSS variables.
 */
export const LIGHT_PALETTE = {
  primary: '#2563eb',
  text: 'rgba(0, 0, 0, 0.88)',
  textSecondary: 'rgba(0, 0, 0, 0.62)',
  fillSecondary: 'rgba(0, 0, 0, 0.06)',
  // Threshold colours, shade 7 (8 for gold and orange): 3:1 or more for large text on the card.
  green: '#389e0d', gold: '#ad6800', orange: '#ad4e00', red: '#cf1322', blue: '#0958d9', purple: '#531dab',
  // Good and bad news in small text (a KPI's change): 4.5:1 or more on the card.
  greenText: '#237804', redText: '#cf1322',
};
export type ViewerPalette = typeof LIGHT_PALETTE;

export const DARK_PALETTE: ViewerPalette = {
  primary: '#3572d4',
  text: 'rgba(255, 255, 255, 0.85)',
  textSecondary: 'rgba(255, 255, 255, 0.72)',
  fillSecondary: 'rgba(255, 255, 255, 0.12)',
  // On the dark palette the higher shades are the lighter ones.
  green: '#6abe39', gold: '#f3cc62', orange: '#f3b765', red: '#e84749', blue: '#3c89e8', purple: '#854eca',
  greenText: '#6abe39', redText: '#ff7875',
};

export const paletteOf = (dark: boolean): ViewerPalette => (dark ? DARK_PALETTE : LIGHT_PALETTE);

/**
 * Series colours: 20 hues distinct on light and dark backgrounds (a chart draws at most 20 series
 * and "Other"), and a grey for "Other".
 */
export const SERIES_PALETTE = [
  '#1677ff', '#fa8c16', '#52c41a', '#eb2f96', '#722ed1', '#13c2c2', '#f5222d', '#a0d911', '#2f54eb', '#faad14',
  '#08979c', '#c41d7f', '#389e0d', '#d4380d', '#531dab', '#7cb305', '#0958d9', '#d48806', '#cf1322', '#006d75',
] as const;
export const OTHER_COLOR = '#8c8c8c';

/** FNV-1a: a value's place in the palette, the same in every viewer and after every reload. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The colour of each series of one chart: a value's colour comes from a hash of the value, so
 * "AAPL" is the same colour in every chart of the dashboard, across reloads and viewers. Two values
 * of one chart landing on the same colour: the one first by label keeps it, the other takes the
 * next free one (values are taken in label order, so the outcome never depends on the data's order).
 */
export function seriesColors(keys: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<number>();
  for (const key of [...keys].sort()) {
    if (key === OTHER_GROUP) {
      out.set(key, OTHER_COLOR);
      continue;
    }
    let at = hash(key) % SERIES_PALETTE.length;
    for (let tries = 0; taken.has(at) && tries < SERIES_PALETTE.length; tries++) at = (at + 1) % SERIES_PALETTE.length;
    taken.add(at);
    out.set(key, SERIES_PALETTE[at]);
  }
  return out;
}
