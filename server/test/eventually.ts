export interface EventuallyOptions {
  /** How long to keep trying, in ms (default 5 s). */
  timeout?: number;
  /** The pause between tries, in ms (default 20). */
  interval?: number;
  /** What is awaited, for the failure message when the check never throws but returns false or null. */
  what?: string;
}

/**
 * Tries `check` until it passes and resolves with what it returned: a check passes when it neither
 * throws (an `expect` inside) nor returns `false` or `null`. After `timeout` it fails with the
 * check's last error, so the failure reads like the assertion that never came true.
 * The one way tests wait for a condition — never a fixed sleep.
 */
export async function eventually<T>(check: () => T | Promise<T>, opts: EventuallyOptions = {}): Promise<Exclude<T, false | null>> {
  const { timeout = 5_000, interval = 20 } = opts;
  const end = Date.now() + timeout;
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false && value !== null) return value as Exclude<T, false | null>;
      failure = new Error(`timed out after ${timeout} ms waiting for ${opts.what ?? 'a condition'} (last: ${String(value)})`);
    } catch (e) {
      failure = e;
    }
    if (Date.now() >= end) throw failure;
    await new Promise((r) => setTimeout(r, interval));
  }
}
