import type { WidgetData } from './widgetData';
import { intervalLabel } from './widgetData';
import type { ChartOption } from './EChart';

/** The ECharts option of a bar, donut or line widget; series ids stay fixed so updates animate in place. */
export function chartOption(data: Exclude<WidgetData, { type: 'kpi' }>, colors: { primary: string; text: string }, large: boolean): ChartOption {
  const fontSize = large ? 18 : 12;
  const tooltip = { trigger: data.type === 'donut' ? 'item' : 'axis', confine: true };
  if (data.type === 'donut') {
    return {
      tooltip,
      legend: { bottom: 0, type: 'scroll', textStyle: { fontSize, color: colors.text } },
      series: [{
        id: 'share', type: 'pie', radius: ['45%', '70%'], center: ['50%', '45%'], avoidLabelOverlap: true,
        label: { formatter: (p: { percent?: number }) => `${Math.round(p.percent ?? 0)}%`, fontSize, color: colors.text },
        data: data.rows.map((r) => ({ name: r.key, value: r.value })),
      }],
    };
  }
  const categories = data.type === 'line' ? data.rows.map((r) => intervalLabel(r.start, data.config.interval)) : data.rows.map((r) => r.key);
  const values = data.rows.map((r) => r.value);
  const horizontal = data.type === 'bar' && 'horizontal' in data.config && data.config.horizontal;
  const category = { type: 'category', data: categories, boundaryGap: data.type !== 'line', axisLabel: { fontSize, color: colors.text, hideOverlap: true }, inverse: horizontal };
  const value = { type: 'value', axisLabel: { fontSize, color: colors.text }, minInterval: data.config.metric === 'count' ? 1 : undefined };
  return {
    tooltip,
    grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
    xAxis: horizontal ? value : category,
    yAxis: horizontal ? category : value,
    series: [
      data.type === 'line'
        ? { id: 'values', type: 'line', data: values, smooth: true, smoothMonotone: 'x', showSymbol: values.length <= 40, color: colors.primary, areaStyle: data.config.area ? { opacity: 0.25 } : undefined }
        : { id: 'values', type: 'bar', data: values, color: colors.primary, barMaxWidth: 48, label: { show: true, position: horizontal ? 'right' : 'top', fontSize, color: colors.text } },
    ],
  };
}
