import { useWidgetEnv } from '../widgets/widgetContext';

/**
 * The viewer's colours, light and dark: the values antd's default and dark algorithms give the app's
 * theme (primary #2563eb, secondary text at 62 % / 72 % so it reads at 4.5:1 or more), written out
 * so the viewer draws without antd. viewerUi.css holds the same values as CSS variables.
 */
const LIGHT = {
  primary: '#2563eb',
  text: 'rgba(0, 0, 0, 0.88)',
  textSecondary: 'rgba(0, 0, 0, 0.62)',
  fillSecondary: 'rgba(0, 0, 0, 0.06)',
  // Threshold colours, shade 7 (8 for gold and orange): 3:1 or more for large text on the card.
  green: '#389e0d', gold: '#ad6800', orange: '#ad4e00', red: '#cf1322', blue: '#0958d9', purple: '#531dab',
  // Good and bad news in small text (a KPI's change): 4.5:1 or more on the card.
  greenText: '#237804', redText: '#cf1322',
};
export type ViewerPalette = typeof LIGHT;

const DARK: ViewerPalette = {
  primary: '#3572d4',
  text: 'rgba(255, 255, 255, 0.85)',
  textSecondary: 'rgba(255, 255, 255, 0.72)',
  fillSecondary: 'rgba(255, 255, 255, 0.12)',
  // On the dark palette the higher shades are the lighter ones.
  green: '#6abe39', gold: '#f3cc62', orange: '#f3b765', red: '#e84749', blue: '#3c89e8', purple: '#854eca',
  greenText: '#6abe39', redText: '#ff7875',
};

export const paletteOf = (dark: boolean): ViewerPalette => (dark ? DARK : LIGHT);

/** The palette of the theme the widgets are drawn in. */
export const useViewerPalette = (): ViewerPalette => paletteOf(useWidgetEnv().dark);
