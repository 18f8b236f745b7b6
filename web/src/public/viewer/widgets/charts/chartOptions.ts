import type { WidgetData } from '../widgetData';
import { intervalLabel, seriesSpansYears } from '../widgetData';
import type { ChartOption } from './EChart';
import { drawnNumber } from '../numbers/drawnNumber';
import { seriesColors } from './seriesColors';

/** The widgets ECharts draws (a KPI and a gauge are drawn without it). */
export type DrawnData = Exclude<WidgetData, { type: 'kpi' | 'gauge' }>;

/** The ECharts option of a bar, donut, line or scatter widget; series ids stay fixed so updates animate in place. */
export function chartOption(data: DrawnData, colors: { primary: string; text: string }, large: boolean): ChartOption {
  const fontSize = large ? 18 : 12;
  if (data.type === 'scatter') return scatterOption(data, colors, fontSize);
  // Tooltips show the numbers as the data table does (an average to 2 decimals).
  const tooltip = { trigger: data.type === 'donut' ? 'item' : 'axis', confine: true, valueFormatter: (v: unknown) => (typeof v === 'number' ? drawnNumber(v).toLocaleString('en-US') : '—') };
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
  if (data.type === 'line' && data.axis === 'number') return numberLineOption(data, colors, fontSize, large);
  // Over a new year, every label carries its year ("Jan 1998"): "Jan" alone would not say which.
  const categories = data.type === 'line' ? data.starts.map((s) => intervalLabel(s, data.bucket, seriesSpansYears(data.starts))) : (data.split?.categories ?? data.rows.map((r) => r.key));
  const horizontal = data.type === 'bar' && 'horizontal' in data.config && data.config.horizontal;
  const category = { type: 'category', data: categories, boundaryGap: data.type !== 'line', axisLabel: categoryLabels(data.type === 'bar', horizontal, categories, fontSize, colors.text), inverse: horizontal };
  // A line's values axis fits its values unless the widget asks for 0; bars always stand on 0.
  // A short widget's values axis drops labels that would sit on each other (the grid lines stay).
  const value = { type: 'value', scale: data.type === 'line' && !data.config.startAtZero, axisLabel: { fontSize, color: colors.text, hideOverlap: true }, minInterval: data.config.metric === 'count' ? 1 : undefined };
  const split = data.type === 'line' ? (data.config.splitField ? data.series : null) : (data.split?.series ?? null);
  const palette = split ? seriesColors(split.map((s) => s.key)) : null;
  const legend = split ? { top: 0, type: 'scroll', textStyle: { fontSize, color: colors.text } } : undefined;
  const zoom = data.type === 'line' ? zoomOf(categories.length, large) : null;
  const base = { tooltip, legend, grid: { left: 8, right: 16, top: split ? 36 : 24, bottom: zoom ? zoom.room : 8, containLabel: true }, xAxis: horizontal ? value : category, yAxis: horizontal ? category : value };
  if (data.type === 'line') {
    const lines = data.series.map((s) => ({ ...lineSeries(s, data.config.area, palette, colors.primary), data: s.values }));
    return { ...base, ...(zoom ? { dataZoom: zoom.dataZoom } : {}), series: lines };
  }
  if (data.split) {
    const stack = 'stack' in data.config && !data.config.stack ? undefined : 'total';
    return {
      ...base,
      series: data.split.series.map((s) => ({ id: `split:${s.key}`, name: s.key, type: 'bar', stack, data: s.values, color: palette!.get(s.key), barMaxWidth: 48, emphasis: { focus: 'series' } })),
    };
  }
  return {
    ...base,
    // Number ranges sit side by side, as a histogram's do.
    series: [{ id: 'values', type: 'bar', data: data.rows.map((r) => r.value), color: colors.primary, ...('bins' in data && data.bins ? { barCategoryGap: '4%' } : { barMaxWidth: 48 }), label: { show: true, position: horizontal ? 'right' : 'top', fontSize, color: colors.text, formatter: (p: { value: unknown }) => (typeof p.value === 'number' ? drawnNumber(p.value).toLocaleString('en-US') : '') } }],
  };
}

/** A line of more points than this can be zoomed and scrolled along its axis. */
export const ZOOM_FROM = 60;

/**
 * Zooming along a long line's horizontal axis: a slider under it, and dragging or ctrl + wheel (or
 * pinching) inside it, so the wheel still scrolls the page. It opens on the whole line (a person
 * zooms in from there; opening on a part hid where the line began). `room`: the grid's bottom
 * margin, the slider's height.
 */
function zoomOf(points: number, large: boolean) {
  if (points <= ZOOM_FROM) return null;
  const height = large ? 28 : 18;
  const start = 0;
  return {
    room: height + 16,
    dataZoom: [
      { id: 'inside', type: 'inside', xAxisIndex: 0, start, end: 100, zoomOnMouseWheel: 'ctrl', moveOnMouseWheel: false, moveOnMouseMove: true },
      { id: 'slider', type: 'slider', xAxisIndex: 0, start, end: 100, height, bottom: 4, showDetail: false, brushSelect: false },
    ],
  };
}

/** One line's look: its colour (a split value's own), curve, points when few, area when filled. */
function lineSeries(s: { key: string; values: unknown[] }, area: boolean, palette: Map<string, string> | null, primary: string) {
  return {
    id: palette ? `series:${s.key}` : 'values', name: palette ? s.key : undefined, type: 'line', color: palette?.get(s.key) ?? primary,
    smooth: true, smoothMonotone: 'x', showSymbol: s.values.length <= 40, areaStyle: area ? { opacity: palette ? 0.15 : 0.25 } : undefined, emphasis: { focus: 'series' },
  };
}

/**
 * A line over a number field: a continuous value axis named by the field, each point at its value
 * (a range at its start). One point per value joins across a series' missing values; ranges leave
 * an empty range's gap (or 0, as a count draws it).
 */
function numberLineOption(data: Extract<DrawnData, { type: 'line'; axis: 'number' }>, colors: { primary: string; text: string }, fontSize: number, large: boolean): ChartOption {
  const split = Boolean(data.config.splitField);
  const palette = split ? seriesColors(data.series.map((s) => s.key)) : null;
  const zoom = zoomOf(data.xs.length, large);
  const tooltip = { trigger: 'axis', confine: true, valueFormatter: (v: unknown) => (typeof v === 'number' ? drawnNumber(v).toLocaleString('en-US') : '—') };
  return {
    tooltip,
    legend: split ? { top: 0, type: 'scroll', textStyle: { fontSize, color: colors.text } } : undefined,
    grid: { left: 8, right: 16, top: split ? 36 : 24, bottom: (zoom ? zoom.room : 8) + fontSize * 2, containLabel: true },
    xAxis: {
      type: 'value', scale: true, name: data.config.xField, nameLocation: 'middle', nameGap: fontSize * 2,
      nameTextStyle: { fontSize, color: colors.text }, axisLabel: { fontSize, color: colors.text, hideOverlap: true },
    },
    yAxis: { type: 'value', scale: !data.config.startAtZero, axisLabel: { fontSize, color: colors.text, hideOverlap: true }, minInterval: data.config.metric === 'count' ? 1 : undefined },
    ...(zoom ? { dataZoom: zoom.dataZoom } : {}),
    series: data.series.map((s) => ({
      ...lineSeries(s, data.config.area, palette, colors.primary),
      connectNulls: data.binWidth === null,
      data: data.xs.map((x, i) => [x, s.values[i]]),
    })),
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

/** Points at most this many pixels across (the largest size-field value), at least SMALLEST. */
const LARGEST = 28;
const SMALLEST = 4;

/** A scatter: two value axes named by their fields, one coloured series per split value, a point's area by the size field. */
function scatterOption(data: Extract<WidgetData, { type: 'scatter' }>, colors: { primary: string; text: string }, fontSize: number): ChartOption {
  const split = Boolean(data.config.splitField);
  const palette = split ? seriesColors(data.series.map((s) => s.key)) : null;
  const sizes = data.series.flatMap((s) => s.points.map((p) => p.size ?? 0));
  const top = Math.max(0, ...sizes);
  const symbolSize = data.config.sizeField && top > 0 ? (v: number[]) => Math.max(SMALLEST, Math.sqrt(Math.max(0, v[2] ?? 0) / top) * LARGEST) : 8;
  // The x axis names its field under its middle; the y axis above its top, never across its labels however wide.
  const axis = (name: string, vertical: boolean) => ({
    type: 'value', scale: true, name, nameLocation: vertical ? 'end' : 'middle', nameGap: vertical ? 10 : fontSize * 2,
    nameTextStyle: { fontSize, color: colors.text, align: vertical ? 'left' : 'center' }, axisLabel: { fontSize, color: colors.text },
  });
  return {
    tooltip: { trigger: 'item', confine: true },
    legend: split ? { top: 0, type: 'scroll', textStyle: { fontSize, color: colors.text } } : undefined,
    grid: { left: 8, right: 16, top: (split ? 36 : 12) + fontSize * 2, bottom: fontSize * 2, containLabel: true },
    xAxis: axis(data.config.xField, false),
    yAxis: axis(data.config.yField, true),
    series: data.series.map((s) => ({
      id: split ? `series:${s.key}` : 'points', name: split ? s.key : undefined, type: 'scatter', symbolSize, large: s.points.length > 2000,
      color: palette?.get(s.key) ?? colors.primary, itemStyle: { opacity: 0.7 },
      data: s.points.map((p) => (data.config.sizeField ? [p.x, p.y, p.size ?? 0] : [p.x, p.y])),
    })),
  };
}
