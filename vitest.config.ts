import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Every test talks to a real server on a free port; browser tests drive Debian's chromium. */
export default defineConfig({
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  test: {
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    // Browser tests share 2 cores with the servers they start; in CI a test gets one more try
    // (the default reporter marks a test that needed it with "retry").
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    globalSetup: ['server/test/globalSetup.ts'],
  },
});
