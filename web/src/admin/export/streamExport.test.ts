import { describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { CSV_OPTIONS } from '@common/csv';
import { recordCounter } from './streamExport';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds a file in chunks of `size` bytes (a cell, a quote or a line break may be cut anywhere). */
function count(format: 'csv' | 'json' | 'ndjson', text: string, size: number) {
  const counter = recordCounter(format);
  const all = bytes(text);
  const seen: number[] = [];
  for (let i = 0; i < all.length; i += size) {
    counter.add(all.subarray(i, i + size));
    seen.push(counter.rows(false));
  }
  return { seen, done: counter.rows(true) };
}

describe('export progress', () => {
  // Cells with line breaks, quotes and commas, written by the same CSV rules as the server's export.
  const records = [
    ['id', 'note'],
    [1, 'first line\r\nsecond line'],
    [2, 'says "hi",\nthen leaves'],
    [3, 'plain'],
  ];
  const csv = stringify(records, CSV_OPTIONS);

  it('counts a CSV record once, whatever line breaks its cells hold, however the bytes arrive', () => {
    for (const size of [1, 2, 3, 7, 1000]) {
      const { seen, done } = count('csv', csv, size);
      expect(done).toBe(3);
      // Never more than the file holds on the way, and never going back.
      expect(Math.max(...seen)).toBe(3);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
  });

  it('counts NDJSON lines and a JSON array\'s records', () => {
    const rows = [{ a: 'x\ny' }, { a: 2 }];
    expect(count('ndjson', rows.map((r) => JSON.stringify(r)).join('\n') + '\n', 4).done).toBe(2);
    expect(count('json', `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`, 5).done).toBe(2);
  });
});
