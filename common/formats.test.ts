import { describe, expect, it } from 'vitest';
import { compareCells, sortOrderFor } from './enumOrder';
import { csvFileName, neutralise } from './csv';
import { asDate, csvValue, fieldLabel, formatValue, isIsoDate } from './formats';

describe('field names', () => {
  it('uses the label, else "Custom Field <id>" for custom fields, else the key', () => {
    expect(fieldLabel('custom_900', { custom_900: 'Channel' })).toBe('Channel');
    expect(fieldLabel('custom_900', {})).toBe('Custom Field 900');
    expect(fieldLabel('custom_900', { custom_900: '  ' })).toBe('Custom Field 900');
    expect(fieldLabel('status', null)).toBe('status');
    expect(fieldLabel('custom_', {})).toBe('custom_');
  });
});

describe('formats', () => {
  it('reads ISO-8601 strings and epoch fields as local date-times with the full value as a title', () => {
    expect(isIsoDate('2026-10-31T11:04:05.123Z')).toBe(true);
    expect(isIsoDate('2026-10-31')).toBe(true);
    expect(isIsoDate('31/10/2026')).toBe(false);
    const iso = '2026-10-31T11:04:05.123Z';
    const shown = formatValue('created_at', iso);
    expect(shown.text).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)));
    expect(shown.text).not.toContain('T11');
    expect(shown.title).toContain(iso);
    // Epoch seconds and milliseconds only where the field name says it is a time.
    expect(asDate('updated_at', 1_790_000_000)?.toISOString()).toBe(new Date(1_790_000_000_000).toISOString());
    expect(asDate('createdAt', 1_790_000_000_000)?.toISOString()).toBe(new Date(1_790_000_000_000).toISOString());
    expect(asDate('amount', 1_790_000_000)).toBeNull();
    expect(formatValue('amount', 1_790_000_000).text).toBe((1_790_000_000).toLocaleString(undefined, { maximumFractionDigits: 2 }));
  });

  it('puts thousands separators in numbers but not in ids, and follows a set format', () => {
    expect(formatValue('amount', 1234567.891).text).toBe((1234567.89).toLocaleString(undefined, { maximumFractionDigits: 2 }));
    expect(formatValue('amount', 1234567.891).numeric).toBe(true);
    expect(formatValue('ticket_id', 100234).text).toBe('100234');
    expect(formatValue('userId', 100234).text).toBe('100234');
    expect(formatValue('zip', '01234').text).toBe('01234');
    expect(formatValue('zip', '1234', { format: 'number' }).text).toBe((1234).toLocaleString());
    expect(formatValue('price', 1234.5, { format: 'currency', currency: 'EUR' }).text)
      .toBe(new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' }).format(1234.5));
    expect(formatValue('rate', 0.255, { format: 'percent' }).text).toBe(new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(0.255));
    expect(formatValue('created_at', '2026-10-31T11:04:05Z', { format: 'text' }).text).toBe('2026-10-31T11:04:05Z');
    expect(formatValue('seen', 1_790_000_000, { format: 'date' }).title).toContain('2026-');
    expect(formatValue('x', 'not a number', { format: 'currency' }).text).toBe('not a number');
    expect(formatValue('x', null).text).toBe('-');
    expect(formatValue('x', [1, 2]).text).toBe('2 items');
  });

  it('writes CSV cells raw under auto and spreadsheet-readable under a set format', () => {
    expect(csvValue('created_at', '2026-10-31T11:04:05.123Z')).toBe('2026-10-31T11:04:05.123Z');
    expect(csvValue('amount', 1234567.5)).toBe('1234567.5');
    expect(csvValue('seen', 1_790_000_000, { format: 'date' })).toBe(new Date(1_790_000_000_000).toISOString());
    expect(csvValue('price', '12.5', { format: 'currency' })).toBe('12.50');
    expect(csvValue('rate', 0.255, { format: 'percent' })).toBe('25.5%');
    expect(csvValue('obj', { a: 1 })).toBe('{"a":1}');
    expect(csvValue('none', null)).toBe('');
  });
});

describe('sorting by meaning', () => {
  it('ranks priority high > medium > low and status open > in progress > closed, unknown values after', () => {
    const order = sortOrderFor('priority');
    expect(['low', 'high', 'medium', 'weird', '', 'High'].sort((a, b) => compareCells(a, b, order))).toEqual(['high', 'High', 'medium', 'low', 'weird', '']);
    expect(['closed', 'open', 'in progress'].sort((a, b) => compareCells(a, b, sortOrderFor('Status')))).toEqual(['open', 'in progress', 'closed']);
    // A column's own order wins; other fields sort naturally.
    expect(['b', 'a', 'c'].sort((a, b) => compareCells(a, b, sortOrderFor('priority', ['c', 'a'])))).toEqual(['c', 'a', 'b']);
    expect(['b', 'A', 'a'].sort((a, b) => compareCells(a, b, sortOrderFor('subject')))).toEqual(['A', 'a', 'b']);
    expect([3, 1, 2].sort((a, b) => compareCells(a, b))).toEqual([1, 2, 3]);
  });
});

describe('csv rules', () => {
  it('neutralises formulas and names files "<dashboard> - <tab>.csv"', () => {
    expect(neutralise('=1+1')).toBe("'=1+1");
    expect(neutralise('-5')).toBe("'-5");
    expect(neutralise('ok')).toBe('ok');
    for (const c of ['＝', '＋', '－', '＠']) expect(neutralise(`${c}1+1`)).toBe(`'${c}1+1`);
    expect(neutralise('１＝１')).toBe('１＝１');
    expect(csvFileName('Support Overview', 'By Status')).toBe('Support Overview - By Status.csv');
    expect(csvFileName('a/b', null)).toBe('a_b.csv');
    expect(csvFileName('///', '')).toBe('dashboard.csv');
  });
});

describe('formats by the field\'s type', () => {
  it('shows a number-looking text or number as written unless its field is a number', () => {
    expect(formatValue('Title', 1941, { type: 'text' }).text).toBe('1941');
    expect(formatValue('Title', '1941', { type: 'category' }).text).toBe('1941');
    expect(formatValue('Title', '1941').text).toBe('1941');
    expect(formatValue('gross', '1941', { type: 'number' }).text).toBe((1941).toLocaleString());
    expect(formatValue('gross', '1941', { type: 'number' }).numeric).toBe(true);
  });

  it('reads every written date form of a date-time field, a zoneless one as written (UTC)', () => {
    const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.UTC(1998, 5, 12));
    for (const v of ['Jun 12 1998', '12 Jun 1998', 'June 12, 1998', '06/12/1998']) expect(formatValue('Released', v, { type: 'datetime' }).text, v).toBe(day);
    expect(formatValue('Released', '12/06/1998', { type: 'datetime', dateOrder: 'dmy' }).text).toBe(day);
    expect(formatValue('Released', 'Jun 12 1998').text).toBe('Jun 12 1998');
    const wall = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 2, 1, 10));
    expect(formatValue('at', '2024-03-01 10:00', { type: 'datetime' }).text).toBe(wall);
    expect(formatValue('at', 1_700_000_000, { type: 'datetime' }).title).toContain('2023-11-14T22:13:20.000Z');
    expect(formatValue('at', 'soon', { type: 'datetime' }).text).toBe('soon');
    expect(formatValue('code', '01/02/2024', { type: 'text' }).text).toBe('01/02/2024');
  });

  it('writes a date-time field\'s dates to CSV as ISO 8601, other fields as written', () => {
    expect(csvValue('Released', 'Jun 12 1998', { type: 'datetime' })).toBe('1998-06-12T00:00:00.000Z');
    expect(csvValue('at', '01/02/2024 10:00', { type: 'datetime', dateOrder: 'dmy' })).toBe('2024-02-01T10:00:00.000Z');
    expect(csvValue('at', 'unknown', { type: 'datetime' })).toBe('unknown');
    expect(csvValue('Title', 'Jun 12 1998', { type: 'text' })).toBe('Jun 12 1998');
  });
});
