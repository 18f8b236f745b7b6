import InfoCircleOutlined from '@ant-design/icons-svg/es/asn/InfoCircleOutlined';
import { Icon } from '../ui/kit';
import type { TimeRange } from '@common/time/timeRanges';
import { emptyReason, NO_NARROWING, widgetFilters } from './emptyReason';
import { useFieldLabel, useWidgetEnv } from './widgetContext';

/** Why a widget has nothing to show, from its filters and range and what the page narrows (emptyReason). */
export function useEmptyReason(config: object): string {
  const env = useWidgetEnv();
  const label = useFieldLabel();
  const range = (config as { range?: TimeRange }).range;
  const total = (env.unfiltered ?? env.feed).get().records.size;
  return emptyReason({ filters: widgetFilters(config), range, narrowing: env.narrowing ?? NO_NARROWING, total, label });
}

/** A chart's place when it has nothing to draw: the reason, in the middle of the card. */
export function WidgetEmpty({ reason }: { reason: string }) {
  const { tv } = useWidgetEnv();
  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 8, flex: 1, minHeight: 0, textAlign: 'center', padding: 8 }} data-testid="widget-empty">
      <Icon icon={InfoCircleOutlined} style={{ fontSize: tv ? 32 : 20 }} />
      <span className="lv-secondary" style={{ fontSize: tv ? 24 : undefined }}>{reason}</span>
    </div>
  );
}
