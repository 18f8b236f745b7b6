import type { ReactNode } from 'react';
import type { GaugeConfig } from '@common/schemas/widgets/widget';
import { formatKpi } from '@common/widgets/format';
import { useViewerPalette } from '../../ui/palette';

/** The dial's opening at the bottom, in degrees (antd's dashboard progress leaves 75). */
const GAP = 75;

/** A dial open at the bottom, filled clockwise from its lower left to `percent` of the way round. */
function Dial({ percent, color, size, label, children }: { percent: number; color: string; size: number; label: string; children: ReactNode }) {
  const r = 47;
  const round = 2 * Math.PI * r;
  const arc = round * (1 - GAP / 360);
  // The stroke starts at the bottom of the circle turned so the gap is centred there.
  const turn = 90 + GAP / 2;
  return (
    <div role="img" aria-label={label} style={{ position: 'relative', width: size, height: size }}>
      <svg viewBox="0 0 100 100" width={size} height={size} style={{ transform: `rotate(${turn}deg)` }} aria-hidden="true">
        <circle cx="50" cy="50" r={r} fill="none" stroke="var(--lv-fill)" strokeWidth="6" strokeLinecap="round" strokeDasharray={`${arc} ${round}`} />
        {percent > 0 && <circle cx="50" cy="50" r={r} fill="none" stroke={color} strokeWidth="6" strokeLinecap="round" strokeDasharray={`${(arc * percent) / 100} ${round}`} style={{ transition: 'stroke-dasharray 0.3s' }} />}
      </svg>
      <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>{children}</div>
    </div>
  );
}

/**
 * Progress to a goal: a half-open dial (or a bar) filled to the value's percent of the way from the
 * start to the goal, the value and "n% of goal" written out; green once the goal is reached.
 */
export function GaugeValue({ value, percent, config, caption, large }: { value: number | null; percent: number | null; config: GaugeConfig; caption: string; large: boolean }) {
  const token = useViewerPalette();
  const unit = { decimals: config.decimals, unit: config.unit, unitPosition: 'suffix' as const };
  const reached = percent !== null && percent >= 100;
  const color = reached ? token.green : token.primary;
  const shown = percent === null ? 0 : Math.max(0, Math.min(100, percent));
  const percentText = percent === null ? '—' : `${Math.round(percent).toLocaleString('en-US')}% of goal`;
  // The goal as set (200, not 200.0).
  const goal = `Goal ${formatKpi(config.goal, { ...unit, decimals: Number.isInteger(config.goal) ? 0 : config.decimals })}`;
  return (
    <div data-testid="gauge" data-percent={percent ?? ''} style={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', alignItems: config.style === 'gauge' ? 'center' : 'stretch', height: '100%', minHeight: 0, gap: 4 }}>
      {config.style === 'gauge' ? (
        <Dial percent={shown} color={color} size={large ? 200 : 120} label={`${caption}: ${formatKpi(value, unit)}, ${percentText}`}>
          <span data-testid="gauge-value" style={{ color: token.text, fontSize: large ? 32 : 20, fontWeight: 600 }}>{formatKpi(value, unit)}</span>
        </Dial>
      ) : (
        <>
          <span data-testid="gauge-value" style={{ fontSize: large ? 48 : 'clamp(24px, 3.5vw, 36px)', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>{formatKpi(value, unit)}</span>
          <div className="lv-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(shown)} aria-label={`${caption}: ${percentText}`} style={{ height: large ? 16 : 10 }}>
            <div style={{ width: `${shown}%`, background: color }} />
          </div>
        </>
      )}
      <strong data-testid="gauge-percent" style={{ fontSize: large ? 22 : undefined, color: reached ? token.green : undefined }}>{percentText}</strong>
      <span className="lv-secondary" style={{ fontSize: large ? 20 : undefined }}>{caption} · {goal}</span>
    </div>
  );
}
