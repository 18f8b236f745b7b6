import { describe, expect, it } from 'vitest';
import { ApiCallError } from './client';
import { sendAndSay, type Notifier } from './useSubmit';

/** A notifier that writes down what it was told. */
function heard(): Notifier & { said: string[] } {
  const said: string[] = [];
  return { said, success: (t, x) => void said.push(`ok: ${t}${x ? ` / ${x}` : ''}`), error: (t, x) => void said.push(`error: ${t}${x ? ` / ${x}` : ''}`) };
}

describe('sendAndSay (what useSubmit says)', () => {
  it('says the success text, made from the answer when asked', async () => {
    const n = heard();
    expect(await sendAndSay(async () => ({ name: 'Sales' }), { success: (d) => ['Dashboard Created', `"${d.name}" has been created.`] }, n)).toEqual({ ok: true });
    expect(await sendAndSay(async () => 1, { success: 'Field types saved' }, n)).toEqual({ ok: true });
    expect(await sendAndSay(async () => ({ status: 'skipped' }), { success: (r) => (r.status === 'started' ? 'Sync Started' : undefined) }, n)).toEqual({ ok: true });
    expect(n.said).toEqual(['ok: Dashboard Created / "Sales" has been created.', 'ok: Field types saved']);
  });

  it('says a failure with the server\'s own message (not the status), or as the caller words it; keeps the message', async () => {
    const n = heard();
    const refused = new ApiCallError(409, '409: A data source with this name exists', 'A data source with this name exists', 'conflict');
    expect(await sendAndSay(() => Promise.reject(refused), { success: 'Data source created successfully', failure: 'Error' }, n)).toEqual({ ok: false, error: 'A data source with this name exists' });
    await sendAndSay(() => Promise.reject(refused), { failure: (e) => ['Error', `Failed to create the dashboard: ${(e as ApiCallError).detail}`] }, n);
    // Without failure text nothing is said: the page shows `error` in place.
    expect(await sendAndSay(() => Promise.reject(new Error('offline')), {}, n)).toEqual({ ok: false, error: 'offline' });
    expect(n.said).toEqual(['error: Error / A data source with this name exists', 'error: Error / Failed to create the dashboard: A data source with this name exists']);
  });
});
