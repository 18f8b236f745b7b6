import { COLUMN_DEFAULT_WIDTH, COLUMN_MAX_WIDTH, COLUMN_MIN_WIDTH } from '@common/constants';
import type { TableColumn } from '@common/schemas/dashboard';

/** Column defaults: visible, width 150, order by position. */
export const defaultColumns = (fields: string[]): TableColumn[] =>
  fields.map((name, order) => ({ name, visible: true, width: COLUMN_DEFAULT_WIDTH, order }));

/** Columns sorted by their order and renumbered 0..n-1. */
export const normalizeColumns = (cols: TableColumn[]): TableColumn[] =>
  [...cols].sort((a, b) => a.order - b.order).map((c, order) => ({ ...c, width: clampWidth(c.width), order }));

/** Moves a column and renumbers the order. */
export function moveColumn(cols: TableColumn[], from: number, to: number): TableColumn[] {
  const next = cols.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next.map((c, order) => ({ ...c, order }));
}

/** Column width while resizing: clamped between 100 and 500. */
export const clampWidth = (w: number) => Math.min(COLUMN_MAX_WIDTH, Math.max(COLUMN_MIN_WIDTH, Math.round(Number.isFinite(w) ? w : COLUMN_DEFAULT_WIDTH)));
