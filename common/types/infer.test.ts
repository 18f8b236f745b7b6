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
