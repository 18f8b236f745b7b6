import { GRID_COLUMNS, type WidgetLayout } from '@common/schemas/widgets/widget';

/**
 * Where a new widget of this size goes: the first place it fits on the 12-column grid, row by row
 * from the top and left to right, so new widgets fill a row beside the others (four KPIs make a
 * row, two charts sit side by side) instead of stacking down the left half.
 */
export function freeSpot(taken: readonly WidgetLayout[], size: { w: number; h: number }): WidgetLayout {
  const w = Math.min(size.w, GRID_COLUMNS);
  const bottom = taken.reduce((m, l) => Math.max(m, l.y + l.h), 0);
  const overlaps = (x: number, y: number) => taken.some((l) => x < l.x + l.w && l.x < x + w && y < l.y + l.h && l.y < y + size.h);
  for (let y = 0; y <= bottom; y++) {
    for (let x = 0; x + w <= GRID_COLUMNS; x++) if (!overlaps(x, y)) return { x, y, w, h: size.h };
  }
  return { x: 0, y: bottom, w, h: size.h };
}
