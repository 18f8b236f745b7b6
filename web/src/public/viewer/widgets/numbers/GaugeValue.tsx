import { Progress, Typography, theme } from 'antd';
import type { GaugeConfig } from '@common/schemas/widgets/widget';
import { formatKpi } from '@common/widgets/format';

/**
 * Progress to a goal: a half-open dial (or a bar) filled to the value's percent of the way from the
 * start to the goal, the value and "n% of goal" written out; green once the goal is reached.
 */
export function GaugeValue({ value, percent, config, caption, large }: { value: number | null; percent: number | null; config: GaugeConfig; caption: string; large: boolean }) {
  const { token } = theme.useToken();
  const unit = { decimals: config.decimals, unit: config.unit, unitPosition: 'suffix' as const };
  const reached = percent !== null && percent >= 100;
  const color = reached ? token.green7 : token.colorPrimary;
  const shown = percent === null ? 0 : Math.max(0, Math.min(100, percent));
  const percentText = percent === null ? '—' : `${Math.round(percent).toLocaleString('en-US')}% of goal`;
  // The goal as set (200, not 200.0).
  const goal = `Goal ${formatKpi(config.goal, { ...unit, decimals: Number.isInteger(config.goal) ? 0 : config.decimals })}`;
  return (
    <div data-testid="gauge" data-percent={percent ?? ''} style={{ display: 'flex', flexDirection: 'column', justifyContent: 'center', alignItems: config.style === 'gauge' ? 'center' : 'stretch', height: '100%', minHeight: 0, gap: 4 }}>
      {config.style === 'gauge' ? (
        <Progress
          type="dashboard"
          percent={shown}
          strokeColor={color}
          size={large ? 200 : 120}
          format={() => <span data-testid="gauge-value" style={{ color: token.colorText, fontSize: large ? 32 : 20, fontWeight: 600 }}>{formatKpi(value, unit)}</span>}
          aria-label={`${caption}: ${formatKpi(value, unit)}, ${percentText}`}
        />
      ) : (
        <>
          <span data-testid="gauge-value" style={{ fontSize: large ? 48 : 'clamp(24px, 3.5vw, 36px)', fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>{formatKpi(value, unit)}</span>
          <Progress percent={shown} strokeColor={color} showInfo={false} size={{ height: large ? 16 : 10 }} aria-label={`${caption}: ${percentText}`} />
        </>
      )}
      <Typography.Text strong data-testid="gauge-percent" style={{ fontSize: large ? 22 : undefined, color: reached ? token.green7 : undefined }}>{percentText}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: large ? 20 : undefined }}>{caption} · {goal}</Typography.Text>
    </div>
  );
}
