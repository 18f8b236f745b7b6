import { theme } from 'antd';
import { useMemo } from 'react';
import { chartOption } from './chartOptions';
import { EChart } from './EChart';
import type { WidgetData } from './widgetData';

/** The drawing of a bar, donut or line widget (its own chunk: ECharts loads only where a chart is shown). */
export default function ChartView({ data, dark, large, label }: { data: Exclude<WidgetData, { type: 'kpi' }>; dark: boolean; large: boolean; label: string }) {
  const { token } = theme.useToken();
  const option = useMemo(() => chartOption(data, { primary: token.colorPrimary, text: token.colorTextSecondary }, large), [data, token.colorPrimary, token.colorTextSecondary, large]);
  return <EChart option={option} dark={dark} label={label} />;
}
