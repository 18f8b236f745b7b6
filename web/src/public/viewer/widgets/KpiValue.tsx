import { Typography, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { KpiConfig } from '@common/schemas/widget';
import { formatKpi, thresholdColor } from '@common/widgets/format';
import type { Comparison } from '@common/widgets/aggregate';
import { previousLabel } from '@common/timeRanges';
import { Sparkline } from './Sparkline';
import { REDUCED_MOTION_QUERY } from '../../../useReducedMotion';
import type { Series } from './widgetData';

const TWEEN_MS = 400;

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

/** "▲ 12%", "▼ 3.5%", "—" (no previous value, or 0: no percentage to give). */
export function changeText(c: Comparison): string {
  if (c.percent === null) return '—';
  const size = Math.abs(c.percent);
  const shown = size >= 10 || size === 0 ? Math.round(size) : Number(size.toFixed(1));
  return `${c.percent > 0 ? '▲' : c.percent < 0 ? '▼' : '='} ${shown.toLocaleString('en-US')}%`;
}

/** Whether a change is good news: up when higher is better, down when lower is (`better`). */
export function trendOf(c: Comparison, better: KpiConfig['better'] = 'higher'): 'better' | 'worse' | 'same' {
  if (c.percent === null || c.percent === 0) return 'same';
  return c.percent > 0 === (better !== 'lower') ? 'better' : 'worse';
}

/**
 * A KPI tile's number, coloured by its thresholds; `caption` says what it counts. Optionally the
 * change against the previous period (green when it is good news, red when not: `better` says
 * which way is good) and a sparkline of the metric per bucket.
 */
export function KpiValue({ value, config, caption, large, comparison, spark, dark }: {
  value: number | null; config: KpiConfig; caption: string; large: boolean; comparison?: Comparison | null; spark?: Series | null; dark?: boolean;
}) {
  const { token } = theme.useToken();
  const shown = useTween(value);
  const color = thresholdColor(value, config.thresholds);
  // Shade 7 (8 for gold and orange) reads at 3:1 or more for large text: on white, and on the
  // dark algorithm's palette, where higher shades are the lighter ones.
  const shade = (c: Palette) => token[`${c}${c === 'gold' || c === 'orange' ? 8 : 7}` as `${Palette}6`];
  const trend = comparison ? trendOf(comparison, config.better) : 'same';
  const rounded = shown === null ? null : value !== null && shown === value ? value : Number(shown.toFixed(config.decimals));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', height: '100%', minHeight: 0 }}>
      <div
        data-testid="kpi-value"
        data-value={value ?? ''}
        aria-live="polite"
        style={{ fontSize: large ? 56 : 'clamp(28px, 4vw, 40px)', fontWeight: 600, lineHeight: 1.1, color: color ? shade(color) : token.colorText, fontVariantNumeric: 'tabular-nums', transition: 'color 0.4s' }}
      >
        {formatKpi(rounded, config)}
      </div>
      {comparison && (
        <Typography.Text
          data-testid="kpi-change"
          data-trend={trend}
          title={trend === 'same' ? undefined : `${trend === 'better' ? 'Better' : 'Worse'} than the previous period (${config.better === 'lower' ? 'lower' : 'higher'} is better)`}
          style={{ fontSize: large ? 20 : undefined, color: trend === 'same' ? token.colorTextSecondary : trend === 'better' ? shade('green') : shade('red') }}
        >
          {changeText(comparison)} vs {previousLabel(config.range)}
        </Typography.Text>
      )}
      <Typography.Text type="secondary" style={{ fontSize: large ? 20 : undefined }}>{caption}</Typography.Text>
      {spark && spark.rows.length > 1 && <Sparkline rows={spark.rows} color={color ? shade(color) : token.colorPrimary} height={large ? 48 : 32} dark={dark} />}
    </div>
  );
}
