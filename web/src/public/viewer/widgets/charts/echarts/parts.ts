import { init, use, type EChartsCoreOption } from 'echarts/core';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

// The renderer, the axes and the tooltip every chart uses come with the core.
use([SVGRenderer, GridComponent, TooltipComponent]);

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


export { init, type EChartsCoreOption };
