export { LineChart as part } from 'echarts/charts';
