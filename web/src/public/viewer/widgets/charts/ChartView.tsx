import { useMemo } from 'react';
import { chartOption, type DrawnData } from './chartOptions';
import { EChart } from './EChart';
import { paletteOf } from '../../ui/palette';

/** The drawing of a bar, donut, line or scatter widget (its own chunk: ECharts loads only where a chart is shown). */
export default function ChartView({ data, dark, large, label }: { data: DrawnData; dark: boolean; large: boolean; label: string }) {
  const { primary, textSecondary } = paletteOf(dark);
  const option = useMemo(() => chartOption(data, { primary, text: textSecondary }, large), [data, primary, textSecondary, large]);
  return <EChart option={option} dark={dark} label={label} />;
}
