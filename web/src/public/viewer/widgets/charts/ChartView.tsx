import { theme } from 'antd';
import { useMemo } from 'react';
import { chartOption, type DrawnData } from './chartOptions';
import { EChart } from './EChart';

/** The drawing of a bar, donut, line or scatter widget (its own chunk: ECharts loads only where a chart is shown). */
export default function ChartView({ data, dark, large, label }: { data: DrawnData; dark: boolean; large: boolean; label: string }) {
  const { token } = theme.useToken();
  const option = useMemo(() => chartOption(data, { primary: token.colorPrimary, text: token.colorTextSecondary }, large), [data, token.colorPrimary, token.colorTextSecondary, large]);
  return <EChart option={option} dark={dark} label={label} />;
}
