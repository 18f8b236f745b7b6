import { describe, expect, it } from 'vitest';
import { eventually } from './eventually';

describe('eventually', () => {
  it('tries again while the check throws or answers false or null, and resolves with its value', async () => {
    let calls = 0;
    const answers = [false, null, 'late'];
    expect(await eventually(() => answers[calls++], { interval: 1 })).toBe('late');
    let tries = 0;
    await eventually(() => expect(++tries).toBe(3), { interval: 1 });
    expect(tries).toBe(3);
  });

  it('fails after the timeout with the last assertion, or names what it waited for', async () => {
    await expect(eventually(() => expect(1).toBe(2), { timeout: 30, interval: 5 })).rejects.toThrow(/expected 1 to be 2/);
    await expect(eventually(() => false, { timeout: 30, interval: 5, what: 'the sync' })).rejects.toThrow(/waiting for the sync/);
  });
});
