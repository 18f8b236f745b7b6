import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A test that sets the process's time zone: it needs modules loaded fresh, after TZ is set. */
const OWN_ZONE = ['common/widgets/westOfUtc.test.ts'];

/**
 * Files that wait on the clock (a 30 s soak, a minute boundary) start first, so
 * none of them is the last one left running on a fresh clone, where Vitest has no past durations
 * and orders files by size.
 */
const CLOCK_BOUND = ['records/ingest/sustained.test.ts', 'alerts/test/alerts.test.ts'];
class ClockBoundFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const bound = (f: TestSpecification) => CLOCK_BOUND.some((name) => f.moduleId.endsWith(name));
    return [...sorted.filter(bound), ...sorted.filter((f) => !bound(f))];
  }
}

/** Every test talks to a real server on a free port; browser tests drive Debian's chromium. */
export default defineConfig({
  resolve: { alias: { '@common': fileURLToPath(new URL('./common', import.meta.url)) } },
  test: {
    environment: 'node',
    pool: 'forks',
    // Two files at a time on two cores. Chromium's renderers take two thirds of the suite's CPU
    // (profiled by process), so a third file mostly adds contention: the whole suite ran 903 s with
    // two against 948 s with three in the same hour, and a loaded machine is what made browser
    // checks late. Four were slower still (650 s against 611 s when the suite was smaller).
    maxWorkers: 2,
    sequence: { sequencer: ClockBoundFirst },
    testTimeout: 30_000,
    // Browser tests share 2 cores with the servers they start; in CI a test gets one more try
    // (the default reporter marks a test that needed it with "retry").
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    globalSetup: ['server/test/globalSetup.ts'],
    // A server process a test starts keeps nothing unless the test gives it a DATA_DIR (test servers: server/test/engine.ts).
    env: { DATA_DIR: ':memory:' },
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_ZONE],
          // Test files share their worker's loaded modules (the server's imports cost about 2 s of
          // CPU per file otherwise); each file starts its own servers, and per-app state lives on the app.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'zone', include: OWN_ZONE, isolate: true } },
    ],
  },
});
