import { describe, expect, it } from 'vitest';
import { LineConfig } from '@common/schemas/widgets/widget';
import { chartOption, ZOOM_FROM, type DrawnData } from './chartOptions';

const colors = { primary: '#1677ff', text: '#555' };
const DAY = 86_400_000;
type Option = { xAxis: { type: string; name?: string }; yAxis: { scale?: boolean }; dataZoom?: { type: string; start?: number; end?: number }[]; series: { data: unknown[]; connectNulls?: boolean }[]; grid: { bottom: number } };

const timeLine = (points: number): DrawnData => ({
  counting: false, type: 'line', axis: 'time', config: LineConfig.parse({ dateField: 'date' }), bucket: 'day', buckets: points,
  starts: Array.from({ length: points }, (_, i) => Date.UTC(2026, 0, 1) + i * DAY), series: [{ key: '', values: Array.from({ length: points }, (_, i) => i) }], leftSeries: 0, omitted: false,
});

describe('line chart options: number axis and zoom', () => {
  it('a long line over time can be zoomed and scrolled, opening on all of it; a short one cannot', () => {
    const long = chartOption(timeLine(200), colors, false) as unknown as Option;
    expect(long.dataZoom!.map((z) => z.type)).toEqual(['inside', 'slider']);
    expect(long.dataZoom![1]).toMatchObject({ start: 0, end: 100 });
    // The slider has its room under the axis.
    expect(long.grid.bottom).toBeGreaterThan(8);
    const short = chartOption(timeLine(ZOOM_FROM), colors, false) as unknown as Option;
    expect(short.dataZoom).toBeUndefined();
    expect(short.xAxis.type).toBe('category');
  });

  it('a line\'s values axis fits its values unless the widget asks for 0', () => {
    expect((chartOption(timeLine(10), colors, false) as unknown as Option).yAxis.scale).toBe(true);
    const fromZero: DrawnData = { ...timeLine(10), config: LineConfig.parse({ dateField: 'date', startAtZero: true }) } as DrawnData;
    expect((chartOption(fromZero, colors, false) as unknown as Option).yAxis.scale).toBe(false);
  });

  it('a line over a number field draws a value axis named by the field, each point at its x', () => {
    const data: DrawnData = {
      counting: false, type: 'line', axis: 'number', config: LineConfig.parse({ xField: 'Horsepower', metric: 'avg', valueField: 'Miles_per_Gallon' }),
      xs: [46, 88, 230], series: [{ key: '', values: [26, null, 16] }], leftSeries: 0, omitted: false, binWidth: null, left: 0,
    };
    const option = chartOption(data, colors, false) as unknown as Option;
    expect(option.xAxis).toMatchObject({ type: 'value', name: 'Horsepower' });
    expect(option.series[0].data).toEqual([[46, 26], [88, null], [230, 16]]);
    // One point per value joins across a value the series lacks; ranges keep their gaps.
    expect(option.series[0].connectNulls).toBe(true);
    expect((chartOption({ ...data, binWidth: 10 }, colors, false) as unknown as Option).series[0].connectNulls).toBe(false);
    const many = { ...data, xs: Array.from({ length: 100 }, (_, i) => i), series: [{ key: '', values: Array.from({ length: 100 }, () => 1) }] };
    expect((chartOption(many, colors, false) as unknown as Option).dataZoom![0]).toMatchObject({ start: 0, end: 100 });
  });
});
