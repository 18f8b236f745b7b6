import { paletteOf, type ViewerPalette } from '@common/widgets/drawn/colors';

/** The report's colours: the viewer's palette (common/widgets/drawn/colors.ts) and the page and card colours of its light and dark themes. */
export interface ReportTheme extends ViewerPalette {
  dark: boolean;
  page: string;
  card: string;
  border: string;
  /** Grid lines and axis lines of charts. */
  line: string;
  /** Table header and zebra rows. */
  headerFill: string;
  /** Badge and card highlight colours by name. */
  tags: Record<string, { fill: string; text: string }>;
  highlight: Record<string, string>;
}

const LIGHT_TAGS = {
  blue: { fill: '#e6f4ff', text: '#0958d9' }, green: { fill: '#f6ffed', text: '#389e0d' }, gold: { fill: '#fffbe6', text: '#ad6800' },
  red: { fill: '#fff1f0', text: '#cf1322' }, gray: { fill: '#fafafa', text: 'rgba(0, 0, 0, 0.88)' },
};
const DARK_TAGS = {
  blue: { fill: '#111a2c', text: '#3c89e8' }, green: { fill: '#162312', text: '#6abe39' }, gold: { fill: '#2b2111', text: '#f3cc62' },
  red: { fill: '#2c1618', text: '#e84749' }, gray: { fill: '#1f1f1f', text: 'rgba(255, 255, 255, 0.85)' },
};
// The bucket cards' highlight borders: antd's red, yellow, green, blue and purple, as the viewer's cards take them.
const HIGHLIGHT = { red: '#f5222d', yellow: '#fadb14', green: '#52c41a', blue: '#1677ff', purple: '#722ed1' };

export function reportTheme(dark: boolean): ReportTheme {
  return dark
    ? { ...paletteOf(true), dark, page: '#000000', card: '#141414', border: '#303030', line: '#303030', headerFill: '#1d1d1d', tags: DARK_TAGS, highlight: { ...HIGHLIGHT, gray: '#424242' } }
    : { ...paletteOf(false), dark, page: '#f5f5f5', card: '#ffffff', border: '#f0f0f0', line: '#e5e7eb', headerFill: '#fafafa', tags: LIGHT_TAGS, highlight: { ...HIGHLIGHT, gray: '#d9d9d9' } };
}
