import path from 'node:path';
import { ensureWebBuilt } from '../../scripts/webBuild';

/**
 * Browser tests need the built web app: built when it is missing or older than its sources, the
 * way `npm start` does it (scripts/webBuild.ts). A failed build does not stop the API tests; the
 * browser tests then fail on the stale app.
 */
export default async function setup() {
  if (process.env.SKIP_WEB_BUILD === '1') return;
  try {
    await ensureWebBuilt({ outDir: path.resolve(process.env.WEB_DIST ?? 'dist/web') });
  } catch {
    console.error(`\nThe web app did not build (see above): browser tests will fail.\n`);
  }
}
