export { GaugeChart as part } from 'echarts/charts';
