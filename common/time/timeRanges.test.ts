import { describe, expect, it } from 'vitest';
import { autoBucket, bucketStart, inWindow, previousLabel, previousWindow, rangeLabel, resolveRange, shiftBucket, spansYears, TimeRange } from './timeRanges';

// Local-time dates, so the tests hold in any time zone the machine runs in.
const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime();
const NOW = at(2026, 11, 24, 10, 37); // a Tuesday

describe('time ranges', () => {
  it('resolves relative ranges back from now and calendar ones to whole periods', () => {
    expect(resolveRange({ kind: 'relative', last: '24h' }, NOW)).toEqual({ from: NOW - 86_400_000, to: NOW });
    expect(resolveRange({ kind: 'relative', last: '12mo' }, NOW)).toEqual({ from: at(2025, 11, 24, 10, 37), to: NOW });
    expect(resolveRange({ kind: 'calendar', period: 'week', previous: false }, NOW)).toEqual({ from: at(2026, 11, 23), to: at(2026, 11, 30) });
    expect(resolveRange({ kind: 'calendar', period: 'quarter', previous: true }, NOW)).toEqual({ from: at(2026, 7, 1), to: at(2026, 10, 1) });
    expect(resolveRange({ kind: 'calendar', period: 'day', previous: true }, NOW)).toEqual({ from: at(2026, 11, 23), to: at(2026, 11, 24) });
    expect(resolveRange({ kind: 'all' }, NOW)).toEqual({ from: null, to: null });
  });

  it('compares with the window of the same length before, and names it', () => {
    const r: TimeRange = { kind: 'relative', last: '24h' };
    expect(previousWindow(r, NOW)).toEqual({ from: NOW - 2 * 86_400_000, to: NOW - 86_400_000 });
    expect(previousLabel(r)).toBe('the previous 24 hours');
    const month: TimeRange = { kind: 'calendar', period: 'month', previous: false };
    expect(previousWindow(month, NOW)).toEqual({ from: at(2026, 10, 1), to: at(2026, 11, 1) });
    expect(previousWindow({ kind: 'all' }, NOW)).toBeNull();
  });

  it('puts instants in local buckets from minute to year, and steps between them', () => {
    const t = at(2024, 8, 17, 13, 45);
    expect(bucketStart(t, 'hour')).toBe(at(2024, 8, 17, 13));
    expect(bucketStart(t, 'week')).toBe(at(2024, 8, 12));
    expect(bucketStart(t, 'month')).toBe(at(2024, 8, 1));
    expect(bucketStart(t, 'quarter')).toBe(at(2024, 7, 1));
    expect(bucketStart(t, 'year')).toBe(at(2024, 1, 1));
    expect(shiftBucket(at(2024, 1, 31), 'month', 1)).toBe(at(2024, 3, 2)); // only ever called on bucket starts
    expect(shiftBucket(at(2024, 1, 1), 'month', 1)).toBe(at(2024, 2, 1));
    expect(shiftBucket(at(2024, 10, 1), 'quarter', -1)).toBe(at(2024, 7, 1));
  });

  it('picks a bucket for the span, and says when labels need the year', () => {
    expect(autoBucket(60 * 60_000)).toBe('minute');
    expect(autoBucket(86_400_000)).toBe('hour');
    expect(autoBucket(30 * 86_400_000)).toBe('day');
    expect(autoBucket(365 * 86_400_000)).toBe('week');
    expect(autoBucket(95 * 365 * 86_400_000)).toBe('year');
    expect(spansYears(at(2024, 12, 30), at(2025, 1, 2))).toBe(true);
    expect(spansYears(at(2024, 1, 1), at(2025, 1, 1))).toBe(false);
  });

  it('validates fixed ranges with messages that name the field, and labels every kind', () => {
    const bad = TimeRange.safeParse({ kind: 'fixed', from: '2024-03-01', to: '2024-01-01' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['from'], message: 'from must be before to' });
    expect(TimeRange.safeParse({ kind: 'relative', last: '2y' }).error?.issues[0].message).toMatch(/last must be one of 15m/);
    const fixed = TimeRange.parse({ kind: 'fixed', from: '2024-01-01T00:00:00Z', to: '2024-04-01T00:00:00Z' });
    expect(rangeLabel(fixed)).toBe('2024-01-01 – 2024-03-31');
    expect(rangeLabel({ kind: 'calendar', period: 'week', previous: true })).toBe('Previous week');
    expect(inWindow(5, { from: null, to: 5 })).toBe(false);
    expect(inWindow(5, { from: 5, to: null })).toBe(true);
  });
});
