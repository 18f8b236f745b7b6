// One colour per series value, the same in a report drawn on the server (common/widgets/drawn/colors.ts).
export { OTHER_COLOR, SERIES_PALETTE, seriesColors } from '@common/widgets/drawn/colors';
