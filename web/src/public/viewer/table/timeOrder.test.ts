import { describe, expect, it } from 'vitest';
import type { RecordDto } from '@common/schemas/records/record';
import { defaultTimeOrder, newestFirst } from './timeOrder';

const rec = (recordId: string, data: Record<string, unknown>, lastUpdated = '2024-01-01T00:00:00Z'): RecordDto =>
  ({ id: recordId, recordId, data, keyOrder: Object.keys(data), createdAt: lastUpdated, lastUpdated, revision: 1 });
const head = (timeField: string | null, appendOnly: boolean) => ({ id: 'x', name: 'x', primaryKey: null, keyMappings: {}, fieldTypes: {}, dateOrder: 'mdy' as const, timeField, appendOnly });

describe('the table\'s default order', () => {
  it('is newest first by the time field, else by arrival for append-only sources, else the server\'s order', () => {
    expect(defaultTimeOrder(head('at', false))).toBe('at');
    expect(defaultTimeOrder(head(null, true))).toBe('');
    expect(defaultTimeOrder(head(null, false))).toBeNull();
    expect(defaultTimeOrder(null)).toBeNull();
    const rows = [rec('a', { at: '2024-01-02T00:00:00Z' }), rec('b', { at: 1_704_240_000 }), rec('c', { at: 'unknown' }, '2023-01-01T00:00:00Z')];
    expect(newestFirst(rows, 'at').map((r) => r.recordId)).toEqual(['b', 'a', 'c']);
    const arrived = [rec('old', {}, '2024-01-01T00:00:00Z'), rec('new', {}, '2024-02-01T00:00:00Z')];
    expect(newestFirst(arrived, '').map((r) => r.recordId)).toEqual(['new', 'old']);
  });
});
