export { VisualMapComponent as part } from 'echarts/components';
