import { useEffect, useRef, useState, useSyncExternalStore, type PointerEvent } from 'react';
import { useReducedMotion } from '../../../../useReducedMotion';
import { init, loadParts, loadTooltip, onTooltipReady, partsReady, tooltipReady, type EChartsCoreOption } from './echarts/parts';

export type ChartOption = EChartsCoreOption;

/**
 * A pushed update keeps the window a person zoomed or scrolled to: the zoom's opening window is
 * given only when the chart has none yet. An option without zoom (the line got short) removes it.
 * Series are replaced, not merged: one the new option has (by id) moves to its new values, one it
 * lacks (a split value a filter left out) leaves the canvas and the legend.
 */
function keepZoom(option: ChartOption, current: ChartOption | undefined): { option: ChartOption; replaceMerge: string[] } {
  const had = Array.isArray(current?.dataZoom) && current.dataZoom.length > 0;
  if (!option.dataZoom) return had ? { option: { ...option, dataZoom: [] }, replaceMerge: ['series', 'dataZoom'] } : { option, replaceMerge: ['series'] };
  if (!had || !Array.isArray(option.dataZoom)) return { option, replaceMerge: ['series'] };
  return { option: { ...option, dataZoom: option.dataZoom.map(({ start: _s, end: _e, ...rest }: Record<string, unknown>) => rest) }, replaceMerge: ['series'] };
}

/**
 * One ECharts instance for the life of the widget: a new option is merged into it, so a pushed
 * change animates the bars, slices or line to their new values instead of drawing the chart anew
 * (or moves them at once, when the person asked their system to reduce motion). The chart types
 * and components an option needs load on first use; the instance is created again once they have
 * (it only takes the layouts registered when it was created). So is the tooltip, when the pointer
 * first comes over a chart: the chart then shows it where the pointer is.
 */
export function EChart({ option, dark, label }: { option: ChartOption; dark: boolean; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);
  const reducedMotion = useReducedMotion();
  const [generation, setGeneration] = useState(0);
  const withTooltip = useSyncExternalStore(onTooltipReady, tooltipReady);
  const pointer = useRef<{ x: number; y: number } | null>(null);

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
  }, [dark, generation, withTooltip]);

  useEffect(() => {
    if (!partsReady(option)) {
      let live = true;
      void loadParts(option).then(() => live && setGeneration((n) => n + 1));
      return () => {
        live = false;
      };
    }
    const instance = chart.current;
    if (!instance) return;
    const { tooltip, ...drawn } = option;
    const next = keepZoom(withTooltip ? option : drawn, instance.getOption());
    instance.setOption({ backgroundColor: 'transparent', animation: !reducedMotion, animationDurationUpdate: 400, ...next.option }, { replaceMerge: next.replaceMerge });
    if (withTooltip && tooltip && pointer.current) instance.dispatchAction({ type: 'showTip', ...pointer.current });
  }, [option, dark, reducedMotion, generation, withTooltip]);

  const point = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    pointer.current = { x: e.clientX - box.left, y: e.clientY - box.top };
    if (!tooltipReady()) void loadTooltip();
  };

  return (
    <div
      ref={host}
      role="img"
      aria-label={label}
      data-zoomable={option.dataZoom ? true : undefined}
      style={{ width: '100%', height: '100%', minHeight: 120 }}
      onPointerEnter={point}
      onPointerMove={point}
      onPointerLeave={() => (pointer.current = null)}
    />
  );
}
