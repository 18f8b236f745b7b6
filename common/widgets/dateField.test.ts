import { describe, expect, it } from 'vitest';
import { dateFieldProblem } from './dateField';
import { readDate } from '../types/dates';

const held = (values: unknown[]) => values.map((v) => ({ data: { f: v } }));

describe("a chart's date field", () => {
  it('takes text dates, whole years (as numbers or text) and epochs; refuses a field whose values are no dates, saying why', () => {
    expect(dateFieldProblem(held(['2024-03-01', 'Jun 12 1998']), 'f')).toBeNull();
    expect(dateFieldProblem(held([1900, '2017', 1700000000, 1700000000123]), 'f')).toBeNull();
    expect(dateFieldProblem(held([]), 'f')).toBeNull();
    expect(dateFieldProblem(held(['Drama', 'Comedy', null]), 'f')).toBe('No values of f read as dates or times ("Drama" does not): pick a date field. Whole years (1000–2999) and epoch seconds or milliseconds count.');
    expect(dateFieldProblem(held(['Drama', 'Comedy', '2024-03-01']), 'f')).toMatch(/^Only 1 of 3 values/);
  });

  it('reads a whole number 1000–2999 of a date-time field as that year, never seconds after 1970', () => {
    expect(readDate(1900, { epoch: true })).toEqual({ time: Date.UTC(1900, 0, 1), dateOnly: true, zoned: false });
    expect(readDate('2017', { epoch: true })?.time).toBe(Date.UTC(2017, 0, 1));
    // Not whole, or beyond the years: epoch seconds as before.
    expect(readDate(1900.5, { epoch: true })?.time).toBe(1_900_500);
    expect(readDate(3000, { epoch: true })?.time).toBe(3_000_000);
    // A bare number is a date only in a date-time field.
    expect(readDate(1900)).toBeNull();
  });
});
