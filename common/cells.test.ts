import { describe, expect, it } from 'vitest';
import { fieldReader, fieldValue } from './cells';

describe('fieldReader', () => {
  const record = { status: 'open', count: 0, empty: null, custom_fields: [{ id: 7, value: 'EMEA' }] } as Record<string, unknown>;

  it('reads what fieldValue reads: own fields, custom fields, nothing for missing ones', () => {
    for (const column of ['status', 'count', 'empty', 'missing', 'custom_7', 'custom_8', 'custom_fields']) {
      expect(fieldReader(column)(record), column).toEqual(fieldValue(record, column));
    }
    expect(fieldReader('custom_7')(record)).toBe('EMEA');
  });

  it('never reads what a plain object inherits', () => {
    for (const column of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf']) {
      expect(fieldReader(column)(record), column).toBeUndefined();
      expect(fieldReader(column)({ [column]: 'mine' }), column).toBe('mine');
    }
  });
});
