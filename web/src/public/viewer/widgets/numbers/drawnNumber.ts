export { drawnNumber } from '@common/widgets/drawn/widgetText';
