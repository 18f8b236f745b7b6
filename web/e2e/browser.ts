import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/test/harness';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = path.resolve('test-output/screenshots');

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];

export interface BrowserHarness {
  server: TestServer;
  context: BrowserContext;
  page: Page;
  /** Saves a full-page screenshot under test-output/screenshots/<name>.png. */
  shot(name: string, page?: Page): Promise<string>;
  close(): Promise<void>;
}

/** Starts the real server and Debian's chromium with a fresh profile. */
export async function startBrowser(opts: { env?: Record<string, string>; viewport?: { width: number; height: number }; reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<BrowserHarness> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Browser tests need chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  const server = await startTestServer(opts.env);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'livedash-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: opts.viewport ?? { width: 1366, height: 900 },
    // The tests browse as someone who asked for reduced motion: lists, dialogs and drawers appear at
    // once, so a click never lands on an option still sliding in (reducedMotion.test.ts checks both).
    reducedMotion: opts.reducedMotion ?? 'reduce',
    acceptDownloads: true,
    baseURL: server.url,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    server,
    context,
    page,
    async shot(name, p = page) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await p.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close().catch(() => {});
      await server.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
