import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vitePrecompress';

const apiTarget = `http://localhost:${process.env.PORT ?? 5000}`;

/** Builds the web app from web/ into dist/web; in dev it proxies the API and Socket.IO. */
export default defineConfig({
  root: 'web',
  plugins: [react(), precompress()],
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  build: { outDir: '../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1200 },
  server: {
    port: 5173,
    proxy: {
      '/api': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
