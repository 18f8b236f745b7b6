import type { WidgetData } from './widgetData';
import { intervalLabel, seriesSpansYears } from './widgetData';
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
  // Over a new year, every label carries its year ("Jan 1998"): "Jan" alone would not say which.
  const withYear = data.type === 'line' && seriesSpansYears(data.rows);
  const categories = data.type === 'line' ? data.rows.map((r) => intervalLabel(r.start, data.bucket, withYear)) : data.rows.map((r) => r.key);
  const values = data.rows.map((r) => r.value);
  const horizontal = data.type === 'bar' && 'horizontal' in data.config && data.config.horizontal;
  const category = { type: 'category', data: categories, boundaryGap: data.type !== 'line', axisLabel: categoryLabels(data.type === 'bar', horizontal, categories, fontSize, colors.text), inverse: horizontal };
  const value = { type: 'value', axisLabel: { fontSize, color: colors.text }, minInterval: data.config.metric === 'count' ? 1 : undefined };
  const stacked = data.type === 'bar' ? data.stacked : undefined;
  return {
    // The axis tooltip names the category in full, whatever its label was shortened to.
    tooltip,
    legend: stacked ? { top: 0, type: 'scroll', textStyle: { fontSize, color: colors.text } } : undefined,
    grid: { left: 8, right: 16, top: stacked ? 36 : 24, bottom: 8, containLabel: true },
    xAxis: horizontal ? value : category,
    yAxis: horizontal ? category : value,
    series: stacked
      ? stacked.stacks.map((s) => ({ id: `stack:${s.key}`, name: s.key, type: 'bar', stack: 'total', data: s.values, barMaxWidth: 48, emphasis: { focus: 'series' } }))
      : [
        data.type === 'line'
          ? { id: 'values', type: 'line', data: values, smooth: true, smoothMonotone: 'x', showSymbol: values.length <= 40, color: colors.primary, areaStyle: data.config.area ? { opacity: 0.25 } : undefined }
          : { id: 'values', type: 'bar', data: values, color: colors.primary, barMaxWidth: 48, label: { show: true, position: horizontal ? 'right' : 'top', fontSize, color: colors.text } },
      ],
  };
}

/** Characters of a category label before it is shortened with "…" (the tooltip shows it whole). */
export const LABEL_CHARS = 18;

/**
 * Category labels of a bar chart are all drawn, never skipped for lack of room: across a vertical
 * chart they turn 45° once there are more than a few, and long ones are shortened with "…".
 */
function categoryLabels(bar: boolean, horizontal: boolean, categories: string[], fontSize: number, color: string) {
  if (!bar) return { fontSize, color, hideOverlap: true };
  const rotate = !horizontal && (categories.length > 5 || categories.some((c) => c.length > 10)) ? 45 : 0;
  return { fontSize, color, interval: 0, rotate, formatter: shortLabel };
}

/** A label cut to LABEL_CHARS characters with "…". */
export const shortLabel = (text: string): string => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);
