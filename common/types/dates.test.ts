import { describe, expect, it } from 'vitest';
import { parseDateText, parseTime, readDate, timeOf } from './dates';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h, mi, s, ms);
const t = (text: string, order: 'mdy' | 'dmy' = 'mdy') => parseDateText(text, order)?.time ?? null;

describe('the one date reader', () => {
  it('reads ISO 8601 with and without a time, zone or offset', () => {
    expect(t('2024-03-01')).toBe(utc(2024, 3, 1));
    expect(t('2024-03-01T10:00')).toBe(utc(2024, 3, 1, 10));
    expect(t('2024-03-01 10:00')).toBe(utc(2024, 3, 1, 10));
    expect(t('2024-03-01T10:00:05.123Z')).toBe(utc(2024, 3, 1, 10, 0, 5, 123));
    expect(t('2024-03-01T10:00:05+02:00')).toBe(utc(2024, 3, 1, 8, 0, 5));
    expect(t('2024-03-01T10:00:05-0530')).toBe(utc(2024, 3, 1, 15, 30, 5));
    expect(t('2024/03/01')).toBe(utc(2024, 3, 1));
    expect(t('  2024-03-01  ')).toBe(utc(2024, 3, 1));
  });

  it('reads every written form with month names', () => {
    const june12 = utc(1998, 6, 12);
    for (const text of ['Jun 12 1998', 'Jun 12, 1998', 'June 12, 1998', '12 Jun 1998', '12 June 1998', '12-Jun-1998', 'jun 12 1998', 'Fri, 12 Jun 1998', 'Friday, June 12, 1998', 'June 12th, 1998', 'Sept 12 1998'.replace('Sept', 'Jun')]) {
      expect(t(text), text).toBe(june12);
      expect(t(text, 'dmy'), text).toBe(june12);
    }
    expect(t('Sept 3, 2024')).toBe(utc(2024, 9, 3));
    expect(t('Jun 12 1998 10:30 PM')).toBe(utc(1998, 6, 12, 22, 30));
    expect(t('Jun 12 1998 12:05 am')).toBe(utc(1998, 6, 12, 0, 5));
    // RFC 2822, as mail and HTTP headers write it.
    expect(t('Fri, 12 Jun 1998 10:00:00 GMT')).toBe(utc(1998, 6, 12, 10));
    expect(t('Fri, 12 Jun 1998 10:00:00 +0100')).toBe(utc(1998, 6, 12, 9));
  });

  it('reads numeric dates by the source\'s day/month order, never swapping silently', () => {
    expect(t('01/02/2024', 'mdy')).toBe(utc(2024, 1, 2));
    expect(t('01/02/2024', 'dmy')).toBe(utc(2024, 2, 1));
    expect(t('1/2/24', 'mdy')).toBe(utc(2024, 1, 2));
    expect(t('31.12.1999', 'dmy')).toBe(utc(1999, 12, 31));
    expect(t('12-31-1999 23:59', 'mdy')).toBe(utc(1999, 12, 31, 23, 59));
    expect(t('1/2/75', 'dmy')).toBe(utc(1975, 2, 1));
    expect(t('13/02/2024', 'mdy')).toBeNull();
    expect(t('02/13/2024', 'dmy')).toBeNull();
  });

  it('reads numbers as epoch seconds (fractions kept) or milliseconds only when the field is a date-time', () => {
    expect(readDate(1_700_000_000, { epoch: true })?.time).toBe(1_700_000_000_000);
    expect(readDate(1_700_000_000.25, { epoch: true })?.time).toBe(1_700_000_000_250);
    expect(readDate(1_700_000_000_123, { epoch: true })?.time).toBe(1_700_000_000_123);
    expect(readDate('1700000000', { epoch: true })?.time).toBe(1_700_000_000_000);
    expect(readDate(1_700_000_000)).toBeNull();
    expect(readDate('1941')).toBeNull();
    expect(readDate(1e300, { epoch: true })).toBeNull();
    expect(readDate(1_700_000_000, { epoch: true })?.zoned).toBe(true);
  });

  it('finds garbage and impossible dates to be no date', () => {
    for (const text of ['', 'nonsense', '1941', '2024', 'Jun 1998', '2026-02-30', '2026-02-29', '2024-13-01', '2024-03-01T24:00', '2024-03-01T10:60',
      'Foo 12 1998', '32 Jun 1998', 'Jun 12 1998 13:00 PM', '2024-03-01Z', '2024-03-01T10:00+15:00', '12/12', 'ticket 12/01/2024', '2026-1x-05T13:45:07Z']) {
      expect(parseDateText(text), text).toBeNull();
      expect(Number.isNaN(parseTime(text)), text).toBe(true);
    }
    expect(t('2024-02-29')).toBe(utc(2024, 2, 29));
    expect(readDate({ a: 1 }, { epoch: true })).toBeNull();
    expect(readDate(true, { epoch: true })).toBeNull();
  });

  it('reads a text without a zone as UTC, whatever the machine\'s zone, and says so', () => {
    // The rule: no zone written → UTC, shown as written (zoned: false); a zone → that instant, shown in local time.
    expect(parseDateText('2024-03-01 10:00')).toEqual({ time: utc(2024, 3, 1, 10), dateOnly: false, zoned: false });
    expect(parseDateText('Jun 12 1998')).toEqual({ time: utc(1998, 6, 12), dateOnly: true, zoned: false });
    expect(parseDateText('2024-03-01T10:00Z')).toEqual({ time: utc(2024, 3, 1, 10), dateOnly: false, zoned: true });
    // Date.parse would read the first as local time and the date alone as UTC: the reader does not.
    expect(parseTime('2024-03-01T10:00:00')).toBe(parseTime('2024-03-01T10:00:00Z'));
  });

  it('reads the common UTC ISO form on a fast path the same as the full reader', () => {
    for (const text of ['1969-12-31T23:59:59Z', '2000-02-28T23:59:59.999Z', '2026-03-01T00:00:00Z', '2026-01-05T13:45:07Z', '2026-01-05T13:45:07.123Z', '2026-01-31T13:45:07.123Z']) {
      expect(parseTime(text), text).toBe(parseDateText(text)!.time);
      expect(parseTime(text), text).toBe(Date.parse(text));
    }
    expect(Number.isNaN(parseTime('2026-02-30T00:00:00Z'))).toBe(true);
    expect(timeOf('Jun 12 1998')).toBe(utc(1998, 6, 12));
    expect(timeOf(1_700_000_000, { epoch: true })).toBe(1_700_000_000_000);
    expect(Number.isNaN(timeOf(1_700_000_000))).toBe(true);
  });
});
