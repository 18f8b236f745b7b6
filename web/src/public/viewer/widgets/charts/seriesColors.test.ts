import { describe, expect, it } from 'vitest';
import { OTHER_COLOR, SERIES_PALETTE, seriesColors } from './seriesColors';

describe('series colours', () => {
  it('give a value the same colour on every chart, whatever else the chart draws, and "Other" grey', () => {
    const a = seriesColors(['AAPL', 'MSFT', 'Other']);
    const b = seriesColors(['GOOG', 'AAPL', 'IBM']);
    expect(a.get('AAPL')).toBe(b.get('AAPL'));
    expect(a.get('Other')).toBe(OTHER_COLOR);
  });

  it('never give two values of one chart the same colour (up to the palette\'s 20)', () => {
    const keys = Array.from({ length: SERIES_PALETTE.length }, (_, i) => `value ${i}`);
    expect(new Set(seriesColors(keys).values()).size).toBe(SERIES_PALETTE.length);
    // The outcome does not depend on the order the values come in.
    expect([...seriesColors([...keys].reverse())].sort()).toEqual([...seriesColors(keys)].sort());
  });
});
