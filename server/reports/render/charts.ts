import * as echarts from 'echarts';
import { seriesColors } from '@common/widgets/drawn/colors';
import type { WidgetNumbers } from '@common/widgets/drawn/widgetData';
import { drawnNumber, intervalLabel, seriesSpansYears } from '@common/widgets/drawn/widgetText';
import { FONT_FAMILY, parseFont, textWidth } from './fonts';
import type { ReportTheme } from './theme';

/**
 * A chart widget drawn by ECharts' server-side SVG renderer (`ssr: true`): the viewer's look
 * (its colours, series colours, labels and number forms) for a still picture — no tooltips, no
 * zoom slider (every point drawn), no animation. ECharts measures its labels with the report's
 * font, so they fit as they are drawn.
 */

echarts.setPlatformAPI({
  measureText: (text: string, font?: string) => {
    const f = parseFont(font);
    return { width: textWidth(text ?? '', f.size, f.bold) };
  },
} as Parameters<typeof echarts.setPlatformAPI>[0]);

export type ChartNumbers = Exclude<WidgetNumbers, { type: 'kpi' | 'gauge' }>;
type Option = Record<string, unknown>;

const FONT = 12;
/** A scatter of more points than this draws them as one path per series. */
const LARGE_SCATTER = 1000;
/** Bars with their values written over them, at most. */
const MAX_LABELLED_BARS = 12;
/** Characters of a category label before it is shortened with "…". */
const LABEL_CHARS = 18;
const shortLabel = (text: string): string => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);
const shown = (v: unknown) => (typeof v === 'number' ? drawnNumber(v).toLocaleString('en-US') : '');

/**
 * The chart as an SVG document of `width` × `height` px; ids are prefixed with `idPrefix` so several
 * charts live in one picture. `dense: 'rect'` draws the points of a scatter of thousands as small
 * squares (the PDF: a square is four path commands, a circle two arcs to turn into curves).
 */
export function chartSvg(data: ChartNumbers, width: number, height: number, theme: ReportTheme, idPrefix: string, dense: 'circle' | 'rect' = 'circle'): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: Math.max(50, Math.round(width)), height: Math.max(50, Math.round(height)) });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: FONT_FAMILY, fontSize: FONT, color: theme.text }, ...chartOption(data, theme, width, dense) });
    // ECharts names its clip paths zr<N>-…: unique per chart in one picture.
    return chart.renderToSVGString().replace(/zr\d+-/g, `${idPrefix}-`);
  } finally {
    chart.dispose();
  }
}

function axisStyle(theme: ReportTheme) {
  return { axisLine: { lineStyle: { color: theme.line } }, splitLine: { lineStyle: { color: theme.line } }, axisLabel: { fontSize: FONT, color: theme.textSecondary } };
}

/** The ECharts option of a bar, donut, line or scatter widget. */
export function chartOption(data: ChartNumbers, theme: ReportTheme, width: number, dense: 'circle' | 'rect' = 'circle'): Option {
  const text = theme.text;
  const axis = axisStyle(theme);
  if (data.type === 'scatter') {
    const split = Boolean(data.config.splitField);
    const palette = split ? seriesColors(data.series.map((s) => s.key)) : null;
    const sizes = data.series.flatMap((s) => s.points.map((p) => p.size ?? 0));
    const top = Math.max(0, ...sizes);
    const many = data.drawn > LARGE_SCATTER;
    const symbolSize = data.config.sizeField && top > 0 && !many ? (v: number[]) => Math.max(4, Math.sqrt(Math.max(0, v[2] ?? 0) / top) * 28) : 8;
    const valueAxis = (name: string, vertical: boolean) => ({
      type: 'value', scale: true, name, nameLocation: vertical ? 'end' : 'middle', nameGap: vertical ? 10 : FONT * 2,
      nameTextStyle: { fontSize: FONT, color: text, align: vertical ? 'left' : 'center' }, ...axis,
    });
    return {
      legend: split ? { top: 0, textStyle: { fontSize: FONT, color: text } } : undefined,
      grid: { left: 8, right: 16, top: (split ? 36 : 12) + FONT * 2, bottom: FONT * 2, containLabel: true },
      xAxis: valueAxis(data.config.xField, false),
      yAxis: valueAxis(data.config.yField, true),
      series: data.series.map((s) => ({
        // Thousands of points are drawn as one path per series, not one element each (the same picture).
        type: 'scatter', name: split ? s.key : undefined, symbolSize, large: many, largeThreshold: 0, ...(many && dense === 'rect' ? { symbol: 'rect' } : {}), color: palette?.get(s.key) ?? theme.primary, itemStyle: { opacity: 0.7 },
        data: s.points.map((p) => (data.config.sizeField ? [p.x, p.y, p.size ?? 0] : [p.x, p.y])),
      })),
    };
  }
  if (data.type === 'donut') {
    return {
      legend: { bottom: 0, textStyle: { fontSize: FONT, color: text }, formatter: shortLabel },
      series: [{
        type: 'pie', radius: ['45%', '70%'], center: ['50%', '45%'], avoidLabelOverlap: true,
        itemStyle: { borderColor: theme.card, borderWidth: 1 },
        label: { formatter: (p: { percent?: number }) => `${Math.round(p.percent ?? 0)}%`, fontSize: FONT, color: text },
        data: data.rows.map((r) => ({ name: r.key, value: r.value })),
      }],
    };
  }
  if (data.type === 'line' && data.axis === 'number') {
    const split = Boolean(data.config.splitField);
    const palette = split ? seriesColors(data.series.map((s) => s.key)) : null;
    return {
      legend: split ? { top: 0, textStyle: { fontSize: FONT, color: text } } : undefined,
      grid: { left: 8, right: 16, top: split ? 36 : 24, bottom: 8 + FONT * 2, containLabel: true },
      xAxis: { type: 'value', scale: true, name: data.config.xField, nameLocation: 'middle', nameGap: FONT * 2, nameTextStyle: { fontSize: FONT, color: text }, ...axis, axisLabel: { ...axis.axisLabel, hideOverlap: true } },
      yAxis: { type: 'value', ...axis, minInterval: data.config.metric === 'count' ? 1 : undefined },
      series: data.series.map((s) => ({ ...lineLook(s, data.config.area, palette, theme.primary), connectNulls: data.binWidth === null, data: data.xs.map((x, i) => [x, s.values[i]]) })),
    };
  }
  const categories = data.type === 'line' ? data.starts.map((s) => intervalLabel(s, data.bucket, seriesSpansYears(data.starts))) : (data.split?.categories ?? data.rows.map((r) => r.key));
  const horizontal = data.type === 'bar' && 'horizontal' in data.config && data.config.horizontal;
  // Labels under vertical bars stay level, broken into lines across their bar's width (level text reads, and is
  // found, in the PDF); turned 45° only where the bars are too narrow for a word.
  const band = (width - 80) / Math.max(1, categories.length);
  const rotate = data.type === 'bar' && !horizontal && band < 48 ? 45 : 0;
  const level = data.type === 'bar' && !horizontal && !rotate ? { width: Math.floor(band - 6), overflow: 'break' } : {};
  const category = {
    type: 'category', data: categories, boundaryGap: data.type !== 'line', inverse: horizontal, ...axis,
    // A line's first and last labels sit inside the chart, not cut at its edges.
    axisLabel: data.type === 'bar' ? { ...axis.axisLabel, interval: 0, rotate, formatter: shortLabel, ...level } : { ...axis.axisLabel, hideOverlap: true, alignMinLabel: 'left', alignMaxLabel: 'right' },
  };
  const value = { type: 'value', ...axis, minInterval: data.config.metric === 'count' ? 1 : undefined };
  const split = data.type === 'line' ? (data.config.splitField ? data.series : null) : (data.split?.series ?? null);
  const palette = split ? seriesColors(split.map((s) => s.key)) : null;
  const base = {
    legend: split ? { top: 0, textStyle: { fontSize: FONT, color: text } } : undefined,
    grid: { left: 8, right: 16, top: split ? 36 : 24, bottom: 8, containLabel: true },
    xAxis: horizontal ? value : category,
    yAxis: horizontal ? category : value,
  };
  if (data.type === 'line') return { ...base, series: data.series.map((s) => ({ ...lineLook(s, data.config.area, palette, theme.primary), data: s.values })) };
  if (data.split) {
    const stack = 'stack' in data.config && !data.config.stack ? undefined : 'total';
    return { ...base, series: data.split.series.map((s) => ({ name: s.key, type: 'bar', stack, data: s.values, color: palette!.get(s.key), barMaxWidth: 48 })) };
  }
  return {
    ...base,
    series: [{
      type: 'bar', data: data.rows.map((r) => r.value), color: theme.primary, ...(data.bins ? { barCategoryGap: '4%' } : { barMaxWidth: 48 }),
      // Values over the bars while they have room for them (a still picture cannot show them on hover).
      label: { show: categories.length <= MAX_LABELLED_BARS, position: horizontal ? 'right' : 'top', fontSize: FONT, color: text, formatter: (p: { value: unknown }) => shown(p.value) },
    }],
  };
}

function lineLook(s: { key: string; values: unknown[] }, area: boolean, palette: Map<string, string> | null, primary: string) {
  return {
    type: 'line', name: palette ? s.key : undefined, color: palette?.get(s.key) ?? primary, smooth: true, smoothMonotone: 'x',
    showSymbol: s.values.length <= 40, areaStyle: area ? { opacity: palette ? 0.15 : 0.25 } : undefined,
  };
}
