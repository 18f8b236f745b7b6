import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { KpiConfig } from '@common/schemas/widgets/widget';
import { formatKpi, thresholdColor } from '@common/widgets/format';
import type { KpiComparison } from '@common/widgets/drawn/kpiComparison';
import { BUCKET_LABELS, previousLabel, rangeLabel } from '@common/time/timeRanges';
import { Sparkline } from './Sparkline';
import { REDUCED_MOTION_QUERY } from '../../../../useReducedMotion';
import type { Series } from '../widgetData';
import { paletteOf } from '../../ui/palette';
import { againstText, changeText, intervalLabel, trendOf } from '@common/widgets/drawn/widgetText';

const TWEEN_MS = 400;

/** How much a KPI shows in its tile: everything; without the sparkline; and with one line of caption too. */
type Fit = 'full' | 'noSpark' | 'compact';
const FITS: Fit[] = ['full', 'noSpark', 'compact'];

/**
 * What fits the tile: measured before paint, and again whenever the tile changes size. Content
 * that overflows first loses the sparkline, then the second lines of its texts — never the number.
 */
function useFit(box: React.RefObject<HTMLDivElement | null>, deps: unknown[]): Fit {
  const [fit, setFit] = useState<Fit>('full');
  const [size, setSize] = useState('');
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setSize(`${el.clientWidth}x${el.clientHeight}`));
    observer.observe(el);
    return () => observer.disconnect();
  }, [box]);
  // A new size or new content: start from everything again.
  useLayoutEffect(() => setFit('full'), [size, ...deps]);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || el.clientHeight === 0 || el.scrollHeight <= el.clientHeight + 1) return;
    const next = FITS[FITS.indexOf(fit) + 1];
    if (next) setFit(next);
  });
  return fit;
}
/** A caption of at most two lines, cut with "…": it never spills out of a small tile. */
const TWO_LINES = { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', lineHeight: 1.3, flex: 'none' } as const;

/** The shown number eases to a new value (a short transition instead of a jump). */
function useTween(target: number | null): number | null {
  const [shown, setShown] = useState(target);
  const from = useRef(target);
  useEffect(() => {
    const start = from.current;
    if (target === null || start === null || start === target || window.matchMedia(REDUCED_MOTION_QUERY).matches) {
      from.current = target;
      setShown(target);
      return;
    }
    const t0 = performance.now();
    let frame = 0;
    const step = (t: number) => {
      const k = Math.min(1, (t - t0) / TWEEN_MS);
      const v = start + (target - start) * (1 - (1 - k) ** 3);
      from.current = v;
      setShown(k < 1 ? v : target);
      if (k < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [target]);
  return shown;
}

type Palette = 'green' | 'gold' | 'orange' | 'red' | 'blue' | 'purple';

/** The comparison in a sentence, for the tooltip: which numbers it compares, and which way is good. */
function comparisonTitle(c: KpiComparison, config: KpiConfig, trend: 'better' | 'worse' | 'same'): string {
  const good = `${config.better === 'lower' ? 'lower' : 'higher'} is better`;
  const verdict = trend === 'same' ? '' : `${trend === 'better' ? 'Better' : 'Worse'}: ${good}. `;
  if (c.against === 'period') return `${verdict}The value against ${previousLabel(config.range)}.`;
  const unit = BUCKET_LABELS[c.bucket].toLowerCase();
  const why = config.range.kind === 'all' ? 'all time has no period before it' : `the period before ${rangeLabel(config.range).toLowerCase()} holds no record`;
  return `${verdict}${intervalLabel(c.latest, c.bucket, true)}, the latest ${unit} in the data, against the ${unit} before it (${why}).`;
}

/**
 * A KPI tile's number, coloured by its thresholds; `caption` says what it counts. Optionally the
 * change against the previous period (green when it is good news, red when not: `better` says
 * which way is good) and a sparkline of the metric per bucket.
 */
export function KpiValue({ value, config, caption, large, comparison, spark, dark }: {
  value: number | null; config: KpiConfig; caption: string; large: boolean; comparison?: KpiComparison | null; spark?: Series | null; dark?: boolean;
}) {
  const token = paletteOf(Boolean(dark));
  const shown = useTween(value);
  const color = thresholdColor(value, config.thresholds);
  // Shade 7 (8 for gold and orange) reads at 3:1 or more for large text: on white, and on the
  // dark palette, where higher shades are the lighter ones (palette.ts).
  const shade = (c: Palette) => token[c];
  const trend = comparison ? trendOf(comparison, config.better) : 'same';
  const rounded = shown === null ? null : value !== null && shown === value ? value : Number(shown.toFixed(config.decimals));
  const text = formatKpi(rounded, config);
  // The number is sized to its tile (container query units): as tall as the tile's share for it
  // allows, never wider than the tile for its count of characters (a digit is about 0.6 em wide);
  // never under 24 px, the size from which its threshold colours read as large text (3:1).
  // On TV the number takes more of the tile: read from across the room, the caption is secondary.
  const box = useRef<HTMLDivElement>(null);
  const hasSpark = Boolean(spark && spark.rows.length > 1);
  const fit = useFit(box, [text.length, caption, Boolean(comparison), hasSpark, large]);
  const showSpark = hasSpark && fit === 'full';
  const share = (large ? 56 : 44) - (comparison ? 10 : 0) - (showSpark ? 14 : 0);
  const numberSize = `clamp(24px, min(${share}cqh, ${(100 / (Math.max(text.length, 2) * 0.62)).toFixed(1)}cqw), ${large ? 240 : 120}px)`;
  const small = { fontSize: `clamp(12px, min(11cqh, 5cqw), ${large ? 28 : 16}px)`, ...TWO_LINES, ...(fit === 'compact' ? { WebkitLineClamp: 1 } : {}) };
  return (
    <div
      ref={box}
      data-fit={fit}
      title={hasSpark && !showSpark ? 'The sparkline is hidden: this tile is too small for it. Make the tile taller to see it.' : undefined}
      style={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', flex: 1, height: '100%', minHeight: 0, overflow: 'hidden', containerType: 'size' }}
    >
      <div
        data-testid="kpi-value"
        data-value={value ?? ''}
        aria-live="polite"
        style={{ fontSize: numberSize, fontWeight: 600, lineHeight: 1.1, whiteSpace: 'nowrap', color: color ? shade(color) : token.text, fontVariantNumeric: 'tabular-nums', transition: 'color 0.4s' }}
      >
        {text}
      </div>
      {comparison && (
        <span
          data-testid="kpi-change"
          data-trend={trend}
          title={comparisonTitle(comparison, config, trend)}
          style={{ ...small, color: trend === 'same' ? token.textSecondary : trend === 'better' ? token.greenText : token.redText }}
        >
          {changeText(comparison)} vs {againstText(comparison, config.range)}
        </span>
      )}
      <span className="lv-secondary" style={small}>{caption}</span>
      {showSpark && <Sparkline rows={spark!.rows} color={color ? shade(color) : token.primary} height={large ? 48 : 32} dark={dark} />}
    </div>
  );
}
