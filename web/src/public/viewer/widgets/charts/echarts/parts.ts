import { init, use, type EChartsCoreOption } from 'echarts/core';
import { GridComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

// The renderer and the axes every chart uses come with the core.
use([SVGRenderer, GridComponent]);

type Part = Parameters<typeof use>[0];
type Loader = () => Promise<{ part: Part }>;

// Each chart type and optional component is its own chunk, fetched the first time an option needs
// it: a dashboard of lines never downloads bars, donuts or gauges. A chart instance reads the
// registered layouts and processors when it is created, so a chart is created after its parts load.
const SERIES: Record<string, Loader> = {
  line: () => import('./line'),
  bar: () => import('./bar'),
  pie: () => import('./pie'),
  scatter: () => import('./scatter'),
  gauge: () => import('./gauge'),
};
const COMPONENTS: Record<string, Loader> = {
  legend: () => import('./legend'),
  dataZoom: () => import('./dataZoom'),
  visualMap: () => import('./visualMap'),
  title: () => import('./title'),
  dataset: () => import('./dataset'),
};
const MARKERS = ['markLine', 'markArea', 'markPoint'];
const loadMarkers: Loader = () => import('./markers');

const loaded = new Set<Loader>();
const loading = new Map<Loader, Promise<void>>();

function load(loader: Loader): Promise<void> {
  let p = loading.get(loader);
  if (!p) {
    p = loader().then(({ part }) => {
      use(part);
      loaded.add(loader);
    });
    loading.set(loader, p);
  }
  return p;
}

type Option = Record<string, unknown> & { series?: unknown };
const seriesOf = (option: Option) => (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as Record<string, unknown>[];

/** The chunks an option draws with. */
function loadersOf(option: Option): Loader[] {
  const out = new Set<Loader>();
  for (const s of seriesOf(option)) {
    const loader = SERIES[String(s.type)];
    if (loader) out.add(loader);
    else console.warn(`No chart part for series type "${String(s.type)}": add it to echarts/parts.ts`);
    if (MARKERS.some((m) => s[m])) out.add(loadMarkers);
  }
  for (const [key, loader] of Object.entries(COMPONENTS)) if (option[key] != null) out.add(loader);
  return [...out];
}

/** Whether every part the option draws with is registered (then it can be set at once). */
export const partsReady = (option: Option) => loadersOf(option).every((l) => loaded.has(l));

/** Registers the parts the option draws with. */
export const loadParts = (option: Option) => Promise.all(loadersOf(option).map(load)).then(() => undefined);

// The tooltip (and its axis pointer, ~12 KB) loads when a person first points at a chart: a
// dashboard looked at from across the room, or printed, never needs it.
const loadTooltipPart: Loader = () => import('./tooltip');
const tooltipListeners = new Set<() => void>();

/** Whether the tooltip is registered (an option can show it). */
export const tooltipReady = () => loaded.has(loadTooltipPart);

/** Registers the tooltip; every chart is told (it creates its instance again to take it). */
export const loadTooltip = () => load(loadTooltipPart).then(() => tooltipListeners.forEach((l) => l()));

/** Follows the tooltip's registration (for useSyncExternalStore). */
export function onTooltipReady(listener: () => void): () => void {
  tooltipListeners.add(listener);
  return () => tooltipListeners.delete(listener);
}

export { init, type EChartsCoreOption };
