import type { KpiConfig, Threshold } from '../schemas/widgets/widget';

/** A KPI value with its decimals, thousands separators and unit ("—" when there is no number). */
export function formatKpi(value: number | null, c: Pick<KpiConfig, 'decimals' | 'unit' | 'unitPosition'>): string {
  if (value === null) return '—';
  const text = value.toLocaleString('en-US', { minimumFractionDigits: c.decimals, maximumFractionDigits: c.decimals });
  if (!c.unit) return text;
  return unitBefore(c) ? `${c.unit}${text}` : `${text} ${c.unit}`;
}

/** Currency signs, alone or with a country's letters ("US$", "C$"), read before the number: "$1,200". */
const CURRENCY = /^[A-Z]{0,3}[$€£¥₹₩₽₺₪฿]$/;

/** Whether the unit goes before the number: as the widget says, or by default for a currency sign. */
export const unitBefore = (c: Pick<KpiConfig, 'unit' | 'unitPosition'>): boolean => (c.unitPosition ?? (CURRENCY.test(c.unit.trim()) ? 'prefix' : 'suffix')) === 'prefix';

/** The colour of the highest threshold the value reaches, or null below all of them. */
export function thresholdColor(value: number | null, thresholds: Threshold[]): Threshold['color'] | null {
  if (value === null) return null;
  let best: Threshold | null = null;
  for (const t of thresholds) if (value >= t.value && (!best || t.value >= best.value)) best = t;
  return best?.color ?? null;
}
