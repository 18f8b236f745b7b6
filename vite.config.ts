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
  const part = /echarts[\\/]lib[\\/](chart|component)[\\/](line|bar|pie|scatter|gauge|legend|dataZoom|visualMap|marker|title|dataset)[\\/]/.exec(id);
  return part ? `echarts-${part[2]}` : 'echarts';
}

/** Builds the web app from web/ into dist/web; in dev it proxies the API and Socket.IO. */
export default defineConfig({
  root: 'web',
  plugins: [react(), precompress()],
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: echartsChunk, test: /node_modules[\\/](echarts|zrender)[\\/]/ }] } } },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
