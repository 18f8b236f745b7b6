/** Words for integration numbers and errors: schedules in their unit, plurals, sync errors in a sentence. */

/** "1 ticket", "2 tickets". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** A sync interval in the largest unit that divides it: "every 30 minutes", "every hour", "every 45 seconds". */
export function everyText(seconds: number): string {
  const units: [number, string][] = [[86_400, 'day'], [3_600, 'hour'], [60, 'minute']];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? `every ${unit}` : `every ${n} ${unit}s`;
    }
  }
  return seconds === 1 ? 'every second' : `every ${seconds} seconds`;
}

const BY_STATUS: Record<number, string> = {
  400: 'Zendesk refused the request — check the integration settings',
  401: 'the authorization expired — reconnect',
  403: 'this Zendesk account may not read these data — check the OAuth client and its scope',
  404: 'the address was not found — check the Host URL',
  429: 'too many requests — the next sync tries again',
};

/** One sentence for a sync error ("Zendesk answered 401: the authorization expired — reconnect"); the raw text goes in the details. */
export function summarizeSyncError(raw: string): string {
  // "GET /api/v2/tickets/123.json answered 401": the status the answer names, before any other number.
  const status = (/(?:answered|HTTP|status)\s*:?\s*([45]\d\d)\b/i.exec(raw) ?? /\b([45]\d\d)\b/.exec(raw))?.[1];
  if (status) {
    const n = Number(status);
    const why = BY_STATUS[n] ?? (n >= 500 ? 'Zendesk had a problem on its side — try again later' : 'the request failed');
    return `Zendesk answered ${n}: ${why}.`;
  }
  if (/ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|network/i.test(raw)) return 'Zendesk could not be reached — check the Host URL and the network.';
  if (/token|authori[sz]/i.test(raw)) return 'The Zendesk authorization is not valid — reconnect.';
  return 'The last sync failed.';
}
