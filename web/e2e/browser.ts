import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
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
  /** Saves a full-page screenshot under test-output/screenshots/<name>.png (in CI only with SCREENSHOTS=1). */
  shot(name: string, page?: Page): Promise<string>;
  close(): Promise<void>;
}

let shared: Promise<Browser> | null = null;

/**
 * Debian's chromium, one per test worker: a launch costs about a second of both cores (a browser,
 * GPU, zygote and UI processes), and the browser files of a worker run one after another. Each
 * harness gets a context of its own — its own cookies, storage and cache, as a fresh profile had.
 * Playwright ends the browser when the worker exits; one that crashed is launched again.
 */
export async function sharedBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Browser tests need chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  shared ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  const browser = await shared.catch((e: unknown) => {
    shared = null;
    throw e;
  });
  if (browser.isConnected()) return browser;
  shared = null;
  return sharedBrowser();
}

/** Starts the real server, and a fresh context of the worker's chromium on it. */
export async function startBrowser(opts: { env?: Record<string, string>; viewport?: { width: number; height: number }; reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<BrowserHarness> {
  const browser = await sharedBrowser();
  const server = await startTestServer(opts.env);
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1366, height: 900 },
    // The tests browse as someone who asked for reduced motion: lists, dialogs and drawers appear at
    // once, so a click never lands on an option still sliding in (reducedMotion.test.ts checks both).
    reducedMotion: opts.reducedMotion ?? 'reduce',
    acceptDownloads: true,
    baseURL: server.url,
  });
  const page = await context.newPage();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    server,
    context,
    page,
    async shot(name, p = page) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      // Screenshots are for people to look at; CI's are thrown away with its clone, and the suite's
      // 128 full-page captures take CPU the two cores need for the tests.
      if (process.env.CI && !process.env.SCREENSHOTS) return file;
      await p.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close().catch(() => {});
      await server.close();
    },
  };
}
