import { useEffect, useRef, useState } from 'react';
import { useReducedMotion } from '../../../useReducedMotion';
import { init, loadParts, partsReady, type EChartsCoreOption } from './echarts/parts';

export type ChartOption = EChartsCoreOption;

/**
 * One ECharts instance for the life of the widget: a new option is merged into it, so a pushed
 * change animates the bars, slices or line to their new values instead of drawing the chart anew
 * (or moves them at once, when the person asked their system to reduce motion). The chart types
 * and components an option needs load on first use; the instance is created again once they have
 * (it only takes the layouts registered when it was created).
 */
export function EChart({ option, dark, label }: { option: ChartOption; dark: boolean; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);
  const reducedMotion = useReducedMotion();
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const el = host.current!;
    const instance = init(el, dark ? 'dark' : undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [dark, generation]);

  useEffect(() => {
    if (!partsReady(option)) {
      let live = true;
      void loadParts(option).then(() => live && setGeneration((n) => n + 1));
      return () => {
        live = false;
      };
    }
    chart.current?.setOption({ backgroundColor: 'transparent', animation: !reducedMotion, animationDurationUpdate: 400, ...option });
  }, [option, dark, reducedMotion, generation]);

  return <div ref={host} role="img" aria-label={label} style={{ width: '100%', height: '100%', minHeight: 120 }} />;
}
