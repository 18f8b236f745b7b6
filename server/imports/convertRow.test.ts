import { describe, expect, it } from 'vitest';
import { convertRow } from './runImport';

describe('an import row typed by its columns', () => {
  it('takes whole years and epoch seconds in a date-time column (disasters.csv: Year), and still refuses what reads as no date', () => {
    const columns = [{ name: 'Year', field: 'Year', type: 'datetime' as const }];
    expect(convertRow({ Year: '1900' }, columns as never, 'mdy')).toEqual({ record: { Year: '1900' } });
    expect(convertRow({ Year: '1700000000' }, columns as never, 'mdy')).toEqual({ record: { Year: '1700000000' } });
    expect(convertRow({ Year: 'someday' }, columns as never, 'mdy')).toEqual({ error: 'column "Year": "someday" is not a date or time' });
  });
});
