/**
 * A chart's number as it is drawn (tooltip, data table, CSV): whole numbers as they are, others to
 * 2 decimals (3 significant digits below 1), so an average reads 123.46, not 123.456789012.
 */
export function drawnNumber(v: number): number {
  if (Number.isInteger(v)) return v;
  return Math.abs(v) < 1 ? Number(v.toPrecision(3)) : Math.round(v * 100) / 100;
}
