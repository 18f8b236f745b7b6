import { describe, expect, it } from 'vitest';
import { readTime, recordTimeReader } from './recordTime';

describe('readTime', () => {
  it('reads ISO 8601 text and epoch seconds or milliseconds, numbers or numeric text', () => {
    const t = Date.parse('2024-03-01T10:00:00Z');
    expect(readTime('2024-03-01T10:00:00Z')).toBe(t);
    expect(readTime('2024-03-01T12:00:00+02:00')).toBe(t);
    expect(readTime('2024-03-01')).toBe(Date.parse('2024-03-01'));
    expect(readTime(t / 1000)).toBe(t);
    expect(readTime(t / 1000 + 0.25)).toBe(t + 250);
    expect(readTime(t)).toBe(t);
    expect(readTime(String(t / 1000))).toBe(t);
  });

  it('reads written dates with the one date reader, numeric ones by the day/month order', () => {
    expect(readTime('Jun 12 1998')).toBe(Date.UTC(1998, 5, 12));
    expect(readTime('01/02/2024')).toBe(Date.UTC(2024, 0, 2));
    expect(readTime('01/02/2024', 'dmy')).toBe(Date.UTC(2024, 1, 1));
  });

  it('reads anything else as no time', () => {
    for (const v of [null, undefined, '', 'soon', 'Jun 12 1998x', {}, [], true, NaN, Infinity, 1e20]) expect(readTime(v)).toBeNull();
  });
});

describe('recordTimeReader', () => {
  it('uses the time field (a path) when readable, else the received time', () => {
    const read = recordTimeReader('event.at');
    expect(read({ event: { at: '2024-01-01T00:00:00Z' } }, 5)).toBe(Date.parse('2024-01-01T00:00:00Z'));
    expect(read({ event: { at: 'n/a' } }, 5)).toBe(5);
    expect(recordTimeReader(null)({ at: 1 }, 7)).toBe(7);
  });
});
