import type { KpiConfig, Threshold } from '../schemas/widget';

/** A KPI value with its decimals, thousands separators and unit ("—" when there is no number). */
export function formatKpi(value: number | null, c: Pick<KpiConfig, 'decimals' | 'unit' | 'unitPosition'>): string {
  if (value === null) return '—';
  const text = value.toLocaleString('en-US', { minimumFractionDigits: c.decimals, maximumFractionDigits: c.decimals });
  if (!c.unit) return text;
  return c.unitPosition === 'prefix' ? `${c.unit}${text}` : `${text} ${c.unit}`;
}

/** The colour of the highest threshold the value reaches, or null below all of them. */
export function thresholdColor(value: number | null, thresholds: Threshold[]): Threshold['color'] | null {
  if (value === null) return null;
  let best: Threshold | null = null;
  for (const t of thresholds) if (value >= t.value && (!best || t.value >= best.value)) best = t;
  return best?.color ?? null;
}
