export { PieChart as part } from 'echarts/charts';
