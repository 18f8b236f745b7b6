import { paletteOf, type ViewerPalette } from '@common/widgets/drawn/colors';
import { useWidgetEnv } from '../widgets/widgetContext';

/**
 * The viewer's colours, light and dark (common/widgets/drawn/colors.ts: a report drawn on the server uses
 * them too). viewerUi.css holds the same values as CSS variables.
 */
export { paletteOf, type ViewerPalette } from '@common/widgets/drawn/colors';

/** The palette of the theme the widgets are drawn in. */
export const useViewerPalette = (): ViewerPalette => paletteOf(useWidgetEnv().dark);
