import { Alert, Button, Card, DatePicker, Flex, Form, Progress, Radio, Select, Switch, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { EXPORT_FORMATS, joinFieldList, type ExportFormat } from '@common/schemas/export';
import { useDataSources } from '../stores/dataSources';
import { streamExport, type ExportProgress } from './streamExport';

const FORMAT_LABEL: Record<ExportFormat, string> = { csv: 'CSV', json: 'JSON array', ndjson: 'NDJSON' };
/** The time range's field meaning "when the record was last written" (no `field` parameter). */
const WRITTEN = '\u0000written';

type Run = { state: 'running'; progress: ExportProgress } | { state: 'done'; progress: ExportProgress; fileName: string } | { state: 'failed'; message: string } | null;

const sizeText = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** Export Data: a source's records as CSV, a JSON array or NDJSON, streamed with progress and saved as a file. */
export default function ExportScreen({ source, onSource }: { source: string | null; onSource(id: string): void }) {
  const sources = useDataSources((s) => s.items);
  const ds = sources.find((d) => d.id === source || d.sourceId === source) ?? sources[0];
  const timeField = ds?.timeField ?? null;
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [fields, setFields] = useState<string[]>([]);
  const [ranged, setRanged] = useState(false);
  const [rangeField, setRangeField] = useState<string>(WRITTEN);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [run, setRun] = useState<Run>(null);
  const abort = useRef<AbortController | null>(null);

  // Another source: its own fields and time field.
  const dsId = ds?.id;
  useEffect(() => {
    setFields([]);
    setRangeField(timeField ?? WRITTEN);
    setRun(null);
  }, [dsId, timeField]);
  useEffect(() => () => abort.current?.abort(), []);
  // Changed options: the last result no longer describes them.
  useEffect(() => setRun((r) => (r?.state === 'running' ? r : null)), [format, fields, ranged, rangeField, range]);

  const start = async () => {
    if (!ds) return;
    const params = new URLSearchParams({ format });
    if (fields.length) params.set('fields', joinFieldList(fields));
    if (ranged && range?.[0]) params.set('from', range[0].toISOString());
    if (ranged && range?.[1]) params.set('to', range[1].toISOString());
    if (ranged && rangeField !== WRITTEN) params.set('field', rangeField);
    abort.current = new AbortController();
    setRun({ state: 'running', progress: { bytes: 0, rows: 0 } });
    try {
      const { blob, fileName, progress } = await streamExport(`/api/admin/data-sources/${encodeURIComponent(ds.id)}/export?${params}`, format, abort.current.signal, (p) =>
        setRun({ state: 'running', progress: p }),
      );
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setRun({ state: 'done', progress, fileName });
    } catch (e) {
      setRun(abort.current?.signal.aborted ? null : { state: 'failed', message: e instanceof Error ? e.message : String(e) });
    } finally {
      abort.current = null;
    }
  };

  if (!sources.length) {
    return (
      <Card title="Export Data" data-testid="export-screen">
        <Typography.Text type="secondary">No data sources yet: create one under Data Sources first.</Typography.Text>
      </Card>
    );
  }
  const total = ds?.recordCount ?? 0;
  const running = run?.state === 'running';
  const percent = run && run.state !== 'failed' ? (run.state === 'done' ? 100 : Math.min(99, total ? Math.floor((run.progress.rows / total) * 100) : 0)) : 0;
  const fieldOptions = (ds?.fields ?? []).map((f) => ({ value: f, label: ds?.keyMappings[f] ? `${ds.keyMappings[f]} (${f})` : f }));

  return (
    <Card title="Export Data" data-testid="export-screen">
      <Typography.Paragraph type="secondary">
        Download a data source&apos;s records. The file streams straight from the database, so a source of any size exports; CSV follows the server&apos;s rules
        (UTF-8 with BOM, cells a spreadsheet would run as formulas neutralised).
      </Typography.Paragraph>
      <Form layout="vertical" style={{ maxWidth: 720 }} disabled={running}>
        <Form.Item label="Data source">
          <Select
            aria-label="Data source"
            value={ds?.id}
            onChange={onSource}
            options={sources.map((d) => ({ value: d.id, label: `${d.name} (${d.recordCount.toLocaleString()} records)` }))}
          />
        </Form.Item>
        <Form.Item label="Format">
          <Radio.Group value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)} optionType="button" options={EXPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABEL[f] }))} />
        </Form.Item>
        <Form.Item label="Fields" extra="Leave empty for every field.">
          <Select aria-label="Fields" mode="multiple" allowClear placeholder="All fields" value={fields} onChange={setFields} options={fieldOptions} />
        </Form.Item>
        <Form.Item>
          <Flex gap={8} align="center">
            <Switch id="export-ranged" size="small" checked={ranged} onChange={setRanged} />
            <label htmlFor="export-ranged" style={{ cursor: 'pointer' }}>Only records in a time range</label>
          </Flex>
        </Form.Item>
        {ranged && (
          <Flex gap={12} wrap>
            <Form.Item label="Time field" style={{ minWidth: 220 }}>
              <Select
                aria-label="Time field"
                value={rangeField}
                onChange={setRangeField}
                options={[{ value: WRITTEN, label: 'When the record was last written' }, ...fieldOptions]}
              />
            </Form.Item>
            <Form.Item label="From – to">
              <DatePicker.RangePicker showTime allowEmpty={[true, true]} value={range} onChange={(v) => setRange(v as [Dayjs | null, Dayjs | null] | null)} />
            </Form.Item>
          </Flex>
        )}
      </Form>
      <Flex gap={8} align="center" style={{ marginTop: 8 }}>
        <Button type="primary" icon={<DownloadOutlined />} loading={running} disabled={!ds} onClick={start}>
          Export {FORMAT_LABEL[format]}
        </Button>
        {running && <Button onClick={() => abort.current?.abort()}>Cancel</Button>}
      </Flex>
      {run && run.state !== 'failed' && (
        <div style={{ marginTop: 16, maxWidth: 720 }} data-testid="export-progress" data-state={run.state}>
          <Progress percent={percent} status={run.state === 'done' ? 'success' : 'active'} />
          <Typography.Text type="secondary" data-testid="export-progress-text">
            {run.progress.rows.toLocaleString()} of {total.toLocaleString()} records · {sizeText(run.progress.bytes)}
            {run.state === 'done' && <> · saved as <Typography.Text code>{run.fileName}</Typography.Text></>}
          </Typography.Text>
        </div>
      )}
      {run?.state === 'failed' && <Alert style={{ marginTop: 16 }} type="error" showIcon title="Export failed" description={run.message} />}
    </Card>
  );
}
