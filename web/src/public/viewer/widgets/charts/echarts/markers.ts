import { MarkAreaComponent, MarkLineComponent, MarkPointComponent } from 'echarts/components';

export const part = [MarkAreaComponent, MarkLineComponent, MarkPointComponent];
