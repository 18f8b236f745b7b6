export { drawnNumber } from '@common/widgets/widgetText';
