import { describe, expect, it } from 'vitest';
import { compileChoices, compileLocked, otherChoices, valueCounts } from './filterBar';
import type { DashboardFilter } from './schemas/widgets/dashboardFilter';

const records = [
  { data: { genre: 'Drama', released: 'Jun 12 1998', rating: 7.5 } },
  { data: { genre: 'Comedy', released: '2005-03-01', rating: '6' } },
  { data: { genre: 'Drama', released: 946684800, rating: 9 } },
  { data: { genre: '', released: 'not a date', rating: null } },
];
const FILTERS: DashboardFilter[] = [
  { id: 'g', kind: 'category', field: 'genre' },
  { id: 'r', kind: 'date', field: 'released', range: { kind: 'all' } },
  { id: 'n', kind: 'number', field: 'rating' },
];
const typing = { fieldTypes: { released: 'datetime' as const }, dateOrder: 'mdy' as const };
const pass = (choices: Parameters<typeof compileChoices>[1]) => {
  const test = compileChoices(FILTERS, choices, typing, Date.UTC(2026, 0, 1));
  return records.filter((r) => !test || test(r.data)).length;
};

describe('filter bar choices', () => {
  it('narrows nothing by default', () => {
    expect(compileChoices(FILTERS, {}, typing)).toBeNull();
  });
  it('category: one of the values; date: in the window (any written form, epoch seconds); number: within bounds', () => {
    expect(pass({ g: { kind: 'category', values: ['drama'] } })).toBe(2);
    expect(pass({ r: { kind: 'date', range: { kind: 'fixed', from: '1990-01-01T00:00:00Z', to: '2000-01-02T00:00:00Z' } } })).toBe(2);
    expect(pass({ n: { kind: 'number', min: 7, max: null } })).toBe(2);
    expect(pass({ n: { kind: 'number', min: null, max: 6 } })).toBe(1);
    expect(pass({ g: { kind: 'category', values: ['Drama'] }, n: { kind: 'number', min: 8, max: 10 } })).toBe(1);
    // A choice of another kind than its filter (a stale URL) is ignored.
    expect(pass({ g: { kind: 'number', min: 100, max: null } })).toBe(4);
  });
  it('a date filter starts with its configured range', () => {
    const test = compileChoices([{ id: 'r', kind: 'date', field: 'released', range: { kind: 'relative', last: '12mo' } }], {}, typing, Date.UTC(2005, 5, 1));
    expect(records.filter((r) => test!(r.data)).map((r) => r.data.genre)).toEqual(['Comedy']);
  });
  it('counts values, most frequent first, empty ones left out', () => {
    expect(valueCounts(records, 'genre', 100)).toEqual([{ value: 'Drama', count: 2 }, { value: 'Comedy', count: 1 }]);
    expect(valueCounts(records, 'genre', 1)).toHaveLength(1);
  });
  it('counts a category\'s values under the other filters as chosen, never under its own choice', () => {
    const choices = { g: { kind: 'category' as const, values: ['Comedy'] }, n: { kind: 'number' as const, min: 7, max: null } };
    const test = otherChoices(FILTERS, choices, 'g', typing);
    // Rating ≥ 7 leaves the two dramas; Comedy being picked does not hide Drama's count.
    expect(valueCounts(records, 'genre', 100, test)).toEqual([{ value: 'Drama', count: 2 }]);
    expect(otherChoices(FILTERS, { g: choices.g }, 'g', typing)).toBeNull();
  });
  it('locked filters all apply', () => {
    const test = compileLocked([{ field: 'genre', operator: 'eq', value: 'drama' }, { field: 'rating', operator: 'gt', value: '8' }]);
    expect(records.filter((r) => test!(r.data))).toHaveLength(1);
    expect(compileLocked([])).toBeNull();
  });
});
