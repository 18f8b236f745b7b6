import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { inferFieldTypes, TypeSampler, SAMPLE_PER_FIELD } from './infer';

describe('type inference on messy data', () => {
  it('reads a sample of many records, not the first one', () => {
    const records = [{ genre: null, gross: null }, ...Array.from({ length: 30 }, (_, i) => ({ genre: ['Drama', 'Comedy', 'Action'][i % 3], gross: i * 1000 + 0.5 }))];
    expect(inferFieldTypes(records)).toEqual({ genre: 'category', gross: 'number' });
  });

  it('a field with blanks and a few stray texts among numbers is a number; numbers as text are numbers', () => {
    const records = Array.from({ length: 40 }, (_, i) => ({ rating: i % 10 === 0 ? '' : i === 7 ? 'n/a' : String(i / 2), votes: i % 5 === 0 ? null : i * 17 }));
    expect(inferFieldTypes(records)).toEqual({ rating: 'number', votes: 'number' });
  });

  it('"1941" among film titles is text, and titles are text even when few', () => {
    const titles = ['Jaws', '1941', 'Alien', 'Heat', 'Ran', 'Brazil', 'Fargo', 'Up', 'Big', 'Tron', 'Rocky', 'Seven'];
    expect(inferFieldTypes(titles.map((Title) => ({ Title: Title === '1941' ? 1941 : Title })))).toEqual({ Title: 'text' });
  });

  it('dates as text in any written form are date-times, by the source\'s day/month order', () => {
    const forms = ['Jun 12 1998', '12 Jun 1998', 'June 12, 1998', '2024-03-01 10:00', '01/02/2024', '2024-03-01T10:00:00Z', ''];
    expect(inferFieldTypes(forms.map((d) => ({ d })))).toEqual({ d: 'datetime' });
    // Epoch numbers among date texts are dates too.
    expect(inferFieldTypes([...forms, 1_700_000_000].map((d) => ({ d })))).toEqual({ d: 'datetime' });
    const dmy = ['25/12/2024', '31/01/2024', '13/02/2024', '01/02/2024'].map((d) => ({ d }));
    expect(inferFieldTypes(dmy, { dateOrder: 'mdy' })).toEqual({ d: 'text' });
    expect(inferFieldTypes(dmy, { dateOrder: 'dmy' })).toEqual({ d: 'datetime' });
  });

  it('epoch numbers are date-times only where the name or the time field says so', () => {
    const records = Array.from({ length: 10 }, (_, i) => ({ created_at: 1_700_000_000 + i, updatedAt: 1_700_000_000_000 + i, seen: 1_700_000_000 + i, amount: 1_700_000_000 }));
    expect(inferFieldTypes(records, { timeField: 'seen' })).toEqual({ created_at: 'datetime', updatedAt: 'datetime', seen: 'datetime', amount: 'number' });
    expect(inferFieldTypes([{ year: 1998 }, { year: 2001 }])).toEqual({ year: 'number' });
  });

  it('booleans, objects, arrays, and leaf paths of nested objects up to 3 levels (not inside arrays)', () => {
    const records = [
      { ok: true, tags: ['a'], issue: { id: 7, meta: { opened: '2024-03-01T10:00:00Z', deep: { x: 1 } } }, 'a.b': 'x' },
      { ok: 'false', tags: [], issue: { id: 8, meta: { opened: '2024-03-02T10:00:00Z', deep: { x: 2 } } }, a: { b: 'y' } },
    ];
    expect(inferFieldTypes(records)).toEqual({ ok: 'boolean', tags: 'text', 'issue.id': 'number', 'issue.meta.opened': 'datetime', 'issue.meta.deep': 'text', 'a.b': 'text' });
    // A field named with a dot and a nested path writing the same name read as one (common/paths: the exact name wins).
    const sampler = new TypeSampler();
    for (const r of records) sampler.add(r);
    expect(sampler.paths()).toEqual(['ok', 'tags', 'issue.id', 'issue.meta.opened', 'issue.meta.deep', 'a.b']);
    expect(inferFieldTypes([{ 'x.y': { z: 1 } }])).toEqual({ 'x\\.y.z': 'number' });
  });

  it('names differing in case are different fields; a field never seen with a value has no type', () => {
    expect(inferFieldTypes([{ Name: 'a', name: 1, none: null }, { Name: 'b', name: 2, none: '' }])).toEqual({ Name: 'text', name: 'number' });
  });

  it('stops counting a field after its sample is full', () => {
    const sampler = new TypeSampler();
    for (let i = 0; i < SAMPLE_PER_FIELD + 50; i++) sampler.add({ n: i < SAMPLE_PER_FIELD ? i : 'text' });
    expect(sampler.types()).toEqual({ n: 'number' });
    expect(sampler.fields.get('n')!.values).toBe(SAMPLE_PER_FIELD);
  });
});

/** Public datasets nobody here wrote (vega-datasets): movies and cars as JSON, Seattle's weather as CSV. */
const require = createRequire(import.meta.url);
const dataFile = (name: string) => path.join(path.resolve(path.dirname(require.resolve('vega-datasets')), '..', 'data'), name);
const movies = JSON.parse(fs.readFileSync(dataFile('movies.json'), 'utf8')) as Record<string, unknown>[];
const cars = JSON.parse(fs.readFileSync(dataFile('cars.json'), 'utf8')) as Record<string, unknown>[];
/** Every value as text, an empty cell left out: what a CSV export of the same records sends (middleware/parseRecords). */
const asCsv = (records: Record<string, unknown>[]) =>
  records.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) => [k, String(v)])));
const weatherCsv = () => {
  const [head, ...rows] = fs.readFileSync(dataFile('seattle-weather.csv'), 'utf8').trim().split('\n');
  const names = head.split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((v, i) => [names[i], v])));
};

describe('number-looking texts need evidence; JSON numbers and CSV columns of numbers are numbers', () => {
  it('a single record titled "1941" is text (as written); the JSON number 1941 is a number', () => {
    expect(inferFieldTypes([{ Title: '1941' }])).toEqual({ Title: 'text' });
    expect(inferFieldTypes([{ Title: '1941' }, { Title: '2012' }])).toEqual({ Title: 'text' });
    expect(inferFieldTypes([{ Title: 1941 }])).toEqual({ Title: 'number' });
  });

  it('texts that are all years, or written like codes, stay text however many; a few plain numbers are enough', () => {
    const years = ['1998', '2001', '2005', '1977', '2012'];
    expect(inferFieldTypes(years.map((y) => ({ y })))).toEqual({ y: 'text' });
    expect(inferFieldTypes(['007', '012', '100', '250', '999'].map((code) => ({ code })))).toEqual({ code: 'text' });
    expect(inferFieldTypes(['12345678901234567', '22345678901234567', '32345678901234567'].map((id) => ({ id })))).toEqual({ id: 'text' });
    expect(inferFieldTypes(['0.5', '12', '3.25'].map((n) => ({ n })))).toEqual({ n: 'number' });
    // A decimal fraction is a measure at once: two CSV rows of amounts are numbers.
    expect(inferFieldTypes(['12.5', '7'].map((amount) => ({ amount })))).toEqual({ amount: 'number' });
    expect(inferFieldTypes(['7', '9'].map((amount) => ({ amount })))).toEqual({ amount: 'text' });
    // A few repeated codes are a category, not numbers.
    expect(inferFieldTypes(['200', '404', '200', '404', '200'].map((status) => ({ status })))).toEqual({ status: 'category' });
  });

  it('movies.json: titles are text (a few are numbers), its JSON numbers are numbers; the same records as CSV text read the same', () => {
    const expected = { Title: 'text', 'US Gross': 'number', 'Worldwide Gross': 'number', 'Production Budget': 'number', 'Release Date': 'datetime', 'IMDB Rating': 'number', 'IMDB Votes': 'number', 'Running Time min': 'number' };
    expect(inferFieldTypes(movies)).toMatchObject(expected);
    expect(inferFieldTypes(asCsv(movies))).toMatchObject(expected);
    // One movie alone, sent as CSV: its number-looking title is not a number yet, and no other text is either.
    const titled1941 = asCsv(movies).find((m) => m.Title === '1941')!;
    expect(inferFieldTypes([titled1941]).Title).toBe('text');
  });

  it('cars.json and its CSV form: measures are numbers, the name text, the year a date-time', () => {
    const expected = { Name: 'text', Miles_per_Gallon: 'number', Cylinders: 'number', Displacement: 'number', Horsepower: 'number', Weight_in_lbs: 'number', Acceleration: 'number', Year: 'datetime', Origin: 'category' };
    expect(inferFieldTypes(cars)).toEqual(expected);
    expect(inferFieldTypes(asCsv(cars))).toEqual(expected);
  });

  it('seattle-weather.csv: every value is text, yet its measures are numbers', () => {
    expect(inferFieldTypes(weatherCsv())).toEqual({ date: 'datetime', precipitation: 'number', temp_max: 'number', temp_min: 'number', wind: 'number', weather: 'category' });
  });
});
