import BellFilled from '@ant-design/icons-svg/es/asn/BellFilled';
import DownloadOutlined from '@ant-design/icons-svg/es/asn/DownloadOutlined';
import { lazy, Suspense, type ReactNode } from 'react';
import type { Widget } from '@common/schemas/dashboard';
import type { ChartConfigs, ChartWidgetType } from '@common/schemas/widgets/widget';
import { downloadCsv } from '../csvDownload';
import { SR_ONLY } from '../../../srOnly';
import { Alert, Button, Card, Icon, SkeletonLines, Tip } from '../../ui/kit';
import { ChartNotes } from './ChartNotes';
import { GaugeValue } from '../numbers/GaugeValue';
import { KpiValue } from '../numbers/KpiValue';
import { useFieldLabel, useWidgetEnv } from '../widgetContext';
import { parseChartWidget, useWidgetData, widgetTable } from '../widgetData';
import { kpiCaption } from '@common/widgets/drawn/widgetText';
import { showsNothing } from '../emptyReason';
import { useEmptyReason, WidgetEmpty } from '../WidgetEmpty';
import { useTileAlert } from '../../tileAlerts';
import type { TileAlertState } from '@common/schemas/alert';

/** The colour of a firing alert's outline, and of its bell and text (readable on the light and the dark theme). */
const ALERT_COLOR = '#ff4d4f';
const alertText = (dark: boolean) => (dark ? '#ff7875' : '#cf1322');
const hhmm = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

const ChartView = lazy(() => import('./ChartView'));

/** A widget's card: its name as title, the content filling the grid cell; a tile tied to an alert shows its state. */
export function WidgetFrame({ title, extra, alert, children }: { title: string; extra?: ReactNode; alert?: TileAlertState; children: ReactNode }) {
  const { tv, dark } = useWidgetEnv();
  const firing = alert?.state === 'firing';
  const bell = firing ? (
    <span data-testid="alert-bell" role="status" style={{ color: alertText(Boolean(dark)), fontWeight: 600, marginRight: 8, whiteSpace: 'nowrap' }}>
      <Icon icon={BellFilled} label="Alert firing" /> {alert.since ? `since ${hhmm(alert.since)}` : 'firing'}
    </span>
  ) : null;
  return (
    <Card
      data-testid="widget"
      data-alert-state={alert?.state}
      title={title}
      large={tv}
      extra={bell || extra ? <>{bell}{extra}</> : undefined}
      style={{ height: '100%', position: 'relative', ...(firing ? { borderColor: ALERT_COLOR, boxShadow: `0 0 0 2px ${ALERT_COLOR}` } : {}) }}
      bodyStyle={{ flex: 1, minHeight: 0, padding: 12, display: 'flex', flexDirection: 'column' }}
    >
      {children}
    </Card>
  );
}

/** A KPI, gauge, bar, donut, line or scatter widget, live; an incomplete one says what is missing. */
export function ChartWidget({ widget }: { widget: Widget }) {
  const title = widget.name || widget.id;
  const { timeField } = useWidgetEnv();
  const parsed = parseChartWidget(widget, timeField);
  if (!parsed.ok) {
    return (
      <WidgetFrame title={title}>
        <Alert type="warning" title="Incomplete widget" text={parsed.message} data-testid="widget-problem" />
      </WidgetFrame>
    );
  }
  return <LiveChart key={parsed.type} widgetId={widget.id} title={title} type={parsed.type} config={parsed.config} />;
}

function LiveChart({ widgetId, title, type, config }: { widgetId: string; title: string; type: ChartWidgetType; config: ChartConfigs[ChartWidgetType] }) {
  const data = useWidgetData(type, config);
  const alert = useTileAlert(widgetId);
  const label = useFieldLabel();
  const { dark, tv } = useWidgetEnv();
  const table = widgetTable(data, label);
  const reason = useEmptyReason(config);
  const empty = !data.counting && showsNothing(data);
  const extra = tv ? null : (
    <Tip title="Download as CSV" end>
      <Button kind="text" icon={DownloadOutlined} aria-label={`Download ${title} as CSV`} onClick={() => downloadCsv(title, table)} />
    </Tip>
  );
  return (
    <WidgetFrame title={title} extra={extra} alert={type === 'kpi' ? alert : undefined}>
      {data.counting ? (
        <SkeletonLines title={false} rows={2} data-testid="widget-counting" />
      ) : data.type === 'kpi' ? (
        <KpiValue value={data.value} config={data.config} caption={empty ? reason : kpiCaption(data.config, label)} large={tv} comparison={data.comparison} spark={data.spark} dark={dark} />
      ) : empty ? (
        <WidgetEmpty reason={reason} />
      ) : data.type === 'gauge' ? (
        <GaugeValue value={data.value} percent={data.percent} config={data.config} caption={kpiCaption(data.config, label)} large={tv} />
      ) : (
        <Suspense fallback={<SkeletonLines />}>
          {data.type === 'line' && data.axis === 'time' && data.buckets > data.starts.length && (
            <span className="lv-secondary" data-testid="chart-limit">
              The last {data.starts.length} of {data.buckets.toLocaleString('en-US')} {data.bucket}s: a chart draws at most {data.starts.length} points; pick a larger bucket or a range.
            </span>
          )}
          <ChartNotes data={data} />
          <div style={{ flex: 1, minHeight: 0 }}>
            <ChartView data={data} dark={dark} large={tv} label={`${title}: ${table.slice(1).map((r) => r.join(' ')).join(', ')}`} />
          </div>
        </Suspense>
      )}
      {data.type !== 'kpi' && !data.counting && (
        <div style={SR_ONLY}>
          <table data-testid="widget-table">
            <caption>{title}</caption>
            <thead><tr>{table[0].map((h, i) => <th key={i}>{h}</th>)}</tr></thead>
            <tbody>{table.slice(1).map((r, i) => <tr key={i}>{r.map((c, j) => <td key={j}>{c}</td>)}</tr>)}</tbody>
          </table>
        </div>
      )}
    </WidgetFrame>
  );
}
