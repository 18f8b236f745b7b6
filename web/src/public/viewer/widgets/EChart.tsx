import { useEffect, useRef } from 'react';
import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useReducedMotion } from '../../../useReducedMotion';

// Only the four chart types and the parts they use: the chunk stays a fraction of all of ECharts.
echarts.use([BarChart, LineChart, PieChart, ScatterChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

/**
 * One ECharts instance for the life of the widget: a new option is merged into it, so a pushed
 * change animates the bars, slices or line to their new values instead of drawing the chart anew
 * (or moves them at once, when the person asked their system to reduce motion).
 */
export function EChart({ option, dark, label }: { option: ChartOption; dark: boolean; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    const el = host.current!;
    const instance = echarts.init(el, dark ? 'dark' : undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', animation: !reducedMotion, animationDurationUpdate: 400, ...option });
  }, [option, dark, reducedMotion]);

  return <div ref={host} role="img" aria-label={label} style={{ width: '100%', height: '100%', minHeight: 120 }} />;
}
