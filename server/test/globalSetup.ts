import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function newest(dir: string): number {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Browser tests need the built web app: build it when it is missing or older than its sources.
 * A failed build does not stop the API tests; the browser tests then fail on the stale app.
 */
export default function setup() {
  if (process.env.SKIP_WEB_BUILD === '1') return;
  const outDir = path.resolve(process.env.WEB_DIST ?? 'dist/web');
  const index = path.join(outDir, 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  if (built < Math.max(newest(path.resolve('web')), newest(path.resolve('common')))) {
    try {
      execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', outDir], {
        stdio: 'inherit',
        // Vitest sets NODE_ENV=test, which would make a development React build.
        env: { ...process.env, NODE_ENV: 'production' },
      });
    } catch {
      console.error(`\nThe web app did not build (see above): browser tests will fail.\n`);
    }
  }
}
