import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vitePrecompress';

const apiTarget = `http://localhost:${process.env.PORT ?? 5000}`;

/**
 * ECharts in a few chunks: its core (with the axes every line and bar draws) in one, and each chart
 * type and optional component (legend, zoom…) in its own, loaded when a chart needs it. Left to
 * the automatic split it came in dozens of small shared chunks that cost more on the wire than the
 * parts a dashboard does not use.
 */
function echartsChunk(id: string): string {
  const part = /echarts[\\/]lib[\\/](chart|component)[\\/](line|bar|pie|scatter|gauge|legend|dataZoom|visualMap|marker|title|dataset|tooltip|axisPointer)[\\/]/.exec(id);
  // The tooltip brings its axis pointer: one chunk, loaded when a person first points at a chart.
  if (part) return `echarts-${part[2] === 'axisPointer' ? 'tooltip' : part[2]}`;
  // The viewer's loader of each part goes with the part (one file fewer to fetch per part).
  const loader = /charts[\\/]echarts[\\/](line|bar|pie|scatter|gauge|legend|dataZoom|visualMap|markers|title|dataset|tooltip)\.ts$/.exec(id);
  if (loader) return `echarts-${loader[1] === 'markers' ? 'marker' : loader[1]}`;
  // The chart drawing (ChartView, its options and the parts loader) is only ever loaded with the core.
  return 'echarts';
}
/** ECharts, and the viewer's chart drawing that is loaded with it (not ChartWidget or ChartNotes: every chart tile runs them). */
const ECHARTS = /node_modules[\\/](echarts|zrender)[\\/]|web[\\/]src[\\/]public[\\/]viewer[\\/]widgets[\\/]charts[\\/](?!ChartWidget|ChartNotes)[^]*\.tsx?$/;

/**
 * The public viewer's code and the small shared modules a first visit runs, in one chunk: a first
 * visit fetches a handful of files instead of twenty (each response carries about 1 KB of headers,
 * and brotli compresses the pieces better together). Its on-demand parts stay out, in their own
 * chunks: tables, boards, the filter bar, TV mode, error pages and the chart drawing (ChartView
 * with ECharts). scripts/viewerBudget.test.ts holds the first visit to its budget.
 */
const VIEWER = [
  /web[\\/]src[\\/]public[\\/]viewer[\\/](?!table[\\/]|buckets[\\/]|tv[\\/]TvViewer|filters[\\/]FilterBar|lazy[\\/](ViewerAntd|ResultView)|widgets[\\/]charts[\\/](?!ChartWidget|ChartNotes))[^]*\.tsx?$/,
  /web[\\/]src[\\/](useReducedMotion|useMediaQuery|useDocumentTitle|api[\\/]client|realtime[\\/]socket)\.ts$/,
  /common[\\/]((cells|constants|csv|enumOrder|filterBar|formats|paths)|types[\\/](dates|fieldTyping|infer)|time[\\/]timeRanges|widgets[\\/](aggregate|aggregateSpec|filters|format|layout|charts[\\/][a-zA-Z]+)|schemas[\\/](errors|widgets[\\/](widget|dashboardFilter)))\.ts$/,
  /node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io[\\/]component-emitter|zustand)[\\/]/,
];

/** Builds the web app from web/ into dist/web; in dev it proxies the API and Socket.IO. */
export default defineConfig({
  root: 'web',
  plugins: [react(), precompress()],
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    // Which chunks each page imports, read by scripts/viewerBudget.test.ts (the viewer's first-visit budget).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A group takes its modules' dependencies along, unless a group of higher priority has them
          // (the viewer's before ECharts', so the chart drawing leaves the viewer's modules in its chunk):
          // React, the router and Vite's chunk preloader stay with the entry (every page runs them); zod
          // is its own chunk (the viewer and the console load it, the landing page does not).
          groups: [
            { name: 'react', priority: 3, test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie|set-cookie-parser)[\\/]|vite[\\/]preload-helper|rolldown[\\/]runtime/ },
            { name: 'zod', priority: 3, test: /node_modules[\\/]zod[\\/]/ },
            { name: echartsChunk, priority: 1, test: (id: string) => !id.endsWith('.test.ts') && ECHARTS.test(id) },
            { name: 'viewer', priority: 2, test: (id: string) => !id.endsWith('.test.ts') && VIEWER.some((re) => re.test(id)) },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
