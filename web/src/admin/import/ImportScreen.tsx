import { Alert, Button, Card, Checkbox, Descriptions, Flex, Form, Input, Progress, Radio, Select, Statistic, Steps, Switch, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import { CloudUploadOutlined, DownloadOutlined } from '@ant-design/icons';
import { useEffect, useMemo, useState } from 'react';
import type { FieldType } from '@common/schemas/dataSource';
import {
  IMPORT_DELIMITERS, IMPORT_ENCODINGS, IMPORT_FORMATS, type DryRunDto, type ImportMode, type ImportPlan, type ImportPreviewDto, type ImportProgressDto, type ImportSettings,
} from '@common/schemas/imports';
import { api } from '../../api/client';
import { sayInPlace, useSubmit } from '../../api/useSubmit';
import { useCan } from '../../api/session';
import { emitRoom, useLiveResource } from '../../realtime/useLiveResource';
import { useAdminSocket } from '../stores/useAdminRealtime';
import { useDataSources } from '../stores/dataSources';
import { ImportNextStep } from './ImportNextStep';
import { downloadRejections, uploadFile } from './importApi';

const MAX_MB = 50;
const STEPS = ['File', 'Columns', 'Target & key', 'Dry run', 'Import'];
const TYPES: { value: FieldType; label: string }[] = [
  { value: 'text', label: 'Text' }, { value: 'number', label: 'Number' }, { value: 'boolean', label: 'Boolean' }, { value: 'datetime', label: 'Date & time' }, { value: 'category', label: 'Category' },
];
const FORMAT_LABEL: Record<ImportSettings['format'], string> = { csv: 'CSV / TSV', json: 'JSON array', ndjson: 'NDJSON' };
const DELIMITER_LABEL: Record<string, string> = { ',': 'Comma (,)', '\t': 'Tab', ';': 'Semicolon (;)', '|': 'Pipe (|)' };
const MODE_TEXT: Record<ImportMode, string> = {
  append: 'Append: add the file\'s rows as new records',
  upsert: 'Upsert: insert new keys, update existing ones',
  replace: 'Replace all: the source\'s records become the file\'s',
};

type Column = { name: string; field: string; type: FieldType; skip: boolean };
const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const n = (v: number) => v.toLocaleString();

/** Import Data: a file in, its columns checked, a dry run, then the import with live progress. */
export default function ImportScreen() {
  const isAdmin = useCan('admin');
  const socket = useAdminSocket();
  const sources = useDataSources((s) => s.items);
  const [step, setStep] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // A failure is said in the page's alert (with the file's own problems), not in a toast.
  const submit = useSubmit(sayInPlace(setError));
  const busy = submit.busy;
  const [preview, setPreview] = useState<ImportPreviewDto | null>(null);
  const [columns, setColumns] = useState<Column[]>([]);
  const [targetKind, setTargetKind] = useState<'new' | 'existing'>(isAdmin ? 'new' : 'existing');
  const [name, setName] = useState('');
  const [sourceId, setSourceId] = useState<string | undefined>();
  const [key, setKey] = useState<string | null>(null);
  const [mode, setMode] = useState<ImportMode>('append');
  const [dry, setDry] = useState<DryRunDto | null>(null);
  const [progress, setProgress] = useState<ImportProgressDto | null>(null);

  const ds = sources.find((d) => d.id === sourceId);
  const fields = columns.filter((c) => !c.skip).map((c) => c.field);
  // An existing keyed source fixes the key; an append-only one has none.
  useEffect(() => {
    if (targetKind !== 'existing' || !ds) return;
    if (ds.primaryKey) setKey(ds.primaryKey);
    else if (ds.appendOnly) setKey(null);
  }, [targetKind, ds]);
  // Any change to the plan: the last dry run no longer describes it.
  useEffect(() => setDry(null), [columns, targetKind, name, sourceId, key, mode]);

  const following = progress?.id;
  useLiveResource<ImportProgressDto>(() => {
    if (!socket || !following) return null;
    return {
      socket,
      // Read once joined too: an event sent before this screen listened (a short import can end first).
      load: (signal) => api.get<ImportProgressDto>(`/api/admin/imports/${following}`, { signal }),
      // The import's end, once shown, stays: a read answered before it is older.
      loaded: (now) => setProgress((p) => (p && p.state !== 'running' ? p : now)),
      room: (on, ack) => emitRoom(on, () => on.emit('import:join', following, ack)),
      pushes: () => ({
        'import:progress': (e) => {
          if (e.id === following) setProgress(e);
        },
      }),
    };
  }, [socket, following]);

  const fromPreview = (p: ImportPreviewDto) => {
    setPreview(p);
    setColumns(p.columns.map((c) => ({ name: c.name, field: c.name, type: c.type, skip: false })));
    if (!name) setName(p.fileName.replace(/\.[^.]*$/, ''));
  };
  const guard = (fn: () => Promise<void>) => {
    setError(null);
    return submit.run(fn, { failure: 'Import' });
  };

  const pick = (file: File) => {
    if (file.size > MAX_MB * 1024 * 1024) {
      setError(`"${file.name}" is ${sizeText(file.size)}: the limit is ${MAX_MB} MB. Split it into smaller files and import each.`);
      return false;
    }
    void guard(async () => {
      setName('');
      fromPreview(await uploadFile(file));
      setProgress(null);
      setStep(1);
    });
    return false;
  };
  const changeSettings = (patch: Partial<ImportSettings>) =>
    preview && guard(async () => fromPreview(await api.post<ImportPreviewDto>(`/api/admin/imports/${preview.id}/preview`, { settings: { ...preview.settings, ...patch } })));

  const plan = (): ImportPlan => ({
    settings: preview!.settings,
    columns,
    target: targetKind === 'new' ? { kind: 'new', name } : { kind: 'existing', dataSourceId: sourceId ?? '' },
    key,
    mode: targetKind === 'new' ? 'append' : mode,
  });
  const runDry = () => preview && guard(async () => setDry(await api.post<DryRunDto>(`/api/admin/imports/${preview.id}/dry-run`, plan())));
  const start = () =>
    preview && guard(async () => {
      if (socket) await new Promise((resolve) => socket.emit('import:join', preview.id, resolve));
      setProgress(await api.post<ImportProgressDto>(`/api/admin/imports/${preview.id}/run`, plan()));
      setStep(4);
    });
  const cancel = () => preview && guard(async () => setProgress(await api.post<ImportProgressDto>(`/api/admin/imports/${preview.id}/cancel`)));

  const mismatches = useMemo(() => {
    if (targetKind !== 'existing' || !ds) return null;
    return { newFields: fields.filter((f) => !ds.fields.includes(f)), missingFields: ds.fields.filter((f) => !fields.includes(f)) };
  }, [targetKind, ds, fields]);
  const targetReady = targetKind === 'new' ? name.trim().length > 0 : Boolean(ds) && !(mode === 'upsert' && !key);

  // Why "Import N rows" cannot be pressed yet, said beside it (and on its tooltip).
  const importBlocked = busy && !dry ? 'The dry run is checking every row…'
    : !dry ? 'Run the dry run first: it checks every row before anything is written.'
    : dry.duplicates.length > 0 ? `The key "${key}" is not unique in the file: pick another key, or none.`
    : dry.inserted + dry.updated === 0 ? 'No row would be written: see the rejected rows.'
    : busy ? 'Working…' : null;

  const setColumn = (i: number, patch: Partial<Column>) => setColumns((cs) => cs.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const running = progress?.state === 'running';

  return (
    <Card title="Import Data" data-testid="import-screen">
      <Steps size="small" current={step} items={STEPS.map((title) => ({ title }))} style={{ marginBottom: 24 }} />
      {error && <Alert type="error" showIcon closable onClose={() => setError(null)} title="Import" description={error} style={{ marginBottom: 16 }} data-testid="import-error" />}

      {step === 0 && (
        <Upload.Dragger accept=".csv,.tsv,.txt,.json,.ndjson,.jsonl" multiple={false} showUploadList={false} beforeUpload={pick} disabled={busy} data-testid="import-dropzone">
          <p className="ant-upload-drag-icon"><CloudUploadOutlined /></p>
          <p className="ant-upload-text">{busy ? 'Uploading…' : 'Click or drag a file to this area'}</p>
          <p className="ant-upload-hint">CSV, TSV, a JSON array or NDJSON, up to {MAX_MB} MB. Encoding, delimiter and header row are detected; you can correct them next.</p>
        </Upload.Dragger>
      )}

      {step === 1 && preview && (
        <>
          <Descriptions size="small" column={3} style={{ marginBottom: 12 }} items={[{ label: 'File', children: preview.fileName }, { label: 'Size', children: sizeText(preview.size) }, { label: 'Columns', children: preview.columns.length }]} />
          <Form layout="inline" disabled={busy} style={{ marginBottom: 16, rowGap: 8 }}>
            <Form.Item label="Format">
              <Select aria-label="Format" style={{ width: 140 }} value={preview.settings.format} onChange={(format) => changeSettings({ format })} options={IMPORT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABEL[f] }))} />
            </Form.Item>
            <Form.Item label="Encoding">
              <Select aria-label="Encoding" style={{ width: 150 }} value={preview.settings.encoding} onChange={(encoding) => changeSettings({ encoding })} options={IMPORT_ENCODINGS.map((e) => ({ value: e, label: e.toUpperCase() }))} />
            </Form.Item>
            {preview.settings.format === 'csv' && (
              <>
                <Form.Item label="Delimiter">
                  <Select aria-label="Delimiter" style={{ width: 150 }} value={preview.settings.delimiter} onChange={(delimiter) => changeSettings({ delimiter })} options={IMPORT_DELIMITERS.map((d) => ({ value: d, label: DELIMITER_LABEL[d] }))} />
                </Form.Item>
                <Form.Item label="First row is the header">
                  <Switch aria-label="First row is the header" checked={preview.settings.header} onChange={(header) => changeSettings({ header })} />
                </Form.Item>
              </>
            )}
          </Form>
          {preview.problems.length > 0 && (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={`${preview.problems.length} of the first rows cannot be read`} description={preview.problems.slice(0, 3).map((p) => `Row ${p.row}: ${p.reason}`).join(' · ')} />
          )}
          <Table
            // On a phone the table scrolls inside its card and leaves out the first values, never widening the page.
            size="small" rowKey="name" pagination={false} data-testid="import-columns" style={{ marginBottom: 16 }} scroll={{ x: 'max-content' }}
            dataSource={columns}
            columns={[
              { title: 'Column in the file', dataIndex: 'name' },
              { title: 'Field', render: (_, c, i) => <Input aria-label={`Field for ${c.name}`} size="small" value={c.field} disabled={c.skip} onChange={(e) => setColumn(i, { field: e.target.value })} /> },
              { title: 'Type', render: (_, c, i) => <Select aria-label={`Type of ${c.name}`} size="small" style={{ width: 120 }} value={c.type} disabled={c.skip} onChange={(type) => setColumn(i, { type })} options={TYPES} /> },
              { title: 'Import', render: (_, c, i) => <Checkbox aria-label={`Import ${c.name}`} checked={!c.skip} onChange={(e) => setColumn(i, { skip: !e.target.checked })} /> },
              { title: 'First values', responsive: ['md'], render: (_, c) => <Typography.Text type="secondary" ellipsis style={{ maxWidth: 260 }}>{preview.rows.slice(0, 3).map((r) => r[preview.columns.findIndex((p) => p.name === c.name)] ?? '–').join(' · ')}</Typography.Text> },
            ]}
          />
          <Typography.Title level={5}>Preview: first {preview.rows.length} rows</Typography.Title>
          <Table
            size="small" pagination={{ pageSize: 10, showSizeChanger: false }} scroll={{ x: 'max-content' }} data-testid="import-preview"
            rowKey={(_, i) => String(i)}
            dataSource={preview.rows.map((cells) => cells)}
            columns={preview.columns.map((c, i) => ({ title: c.name, key: c.name, render: (_: unknown, row: ImportPreviewDto['rows'][number]) => (row[i] === null ? '–' : String(row[i])) }))}
          />
          <Flex gap={8} style={{ marginTop: 16 }}>
            <Button onClick={() => setStep(0)}>Another file</Button>
            <Button type="primary" disabled={busy || fields.length === 0} onClick={() => setStep(2)}>Next: target &amp; key</Button>
          </Flex>
        </>
      )}

      {step === 2 && preview && (
        <Form layout="vertical" style={{ maxWidth: 720 }} disabled={busy}>
          <Form.Item label="Import into">
            <Radio.Group value={targetKind} onChange={(e) => setTargetKind(e.target.value as 'new' | 'existing')} optionType="button"
              options={[{ value: 'new', label: 'A new data source', disabled: !isAdmin }, { value: 'existing', label: 'An existing data source' }]} />
            {!isAdmin && <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>Creating a data source needs the admin role: editors import into existing ones.</Typography.Paragraph>}
          </Form.Item>
          {targetKind === 'new' ? (
            <Form.Item label="Name of the new data source">
              <Input aria-label="Name of the new data source" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
            </Form.Item>
          ) : (
            <>
              <Form.Item label="Data source">
                <Select aria-label="Data source" placeholder="Pick a data source" value={sourceId} onChange={setSourceId} options={sources.map((d) => ({ value: d.id, label: `${d.name} (${n(d.recordCount)} records)` }))} />
              </Form.Item>
              <Form.Item label="Mode">
                <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as ImportMode)}>
                  <Flex vertical gap={4}>
                    {(['append', 'upsert', 'replace'] as const).map((m) => <Radio key={m} value={m} disabled={m === 'upsert' && Boolean(ds?.appendOnly)}>{MODE_TEXT[m]}</Radio>)}
                  </Flex>
                </Radio.Group>
              </Form.Item>
              {mismatches && (mismatches.newFields.length > 0 || mismatches.missingFields.length > 0) && (
                <Alert type="info" showIcon style={{ marginBottom: 16 }} title="Fields matched by name" data-testid="import-mismatches"
                  description={<>
                    {mismatches.newFields.length > 0 && <div>New to this source: {mismatches.newFields.map((f) => <Tag key={f}>{f}</Tag>)}</div>}
                    {mismatches.missingFields.length > 0 && <div>In the source, not in the file: {mismatches.missingFields.map((f) => <Tag key={f}>{f}</Tag>)}</div>}
                  </>} />
              )}
            </>
          )}
          <Form.Item label="Key" extra={key ? 'Checked unique over the whole file before anything is written.' : 'No key: every row is kept as a new record (append-only).'}>
            <Select aria-label="Key" value={key ?? ''} onChange={(v) => setKey(v || null)} disabled={targetKind === 'existing' && Boolean(ds?.primaryKey || ds?.appendOnly)}
              options={[{ value: '', label: 'None (append-only)' }, ...fields.map((f) => ({ value: f, label: f }))]} />
          </Form.Item>
          <Flex gap={8}>
            <Button onClick={() => setStep(1)}>Back</Button>
            {/* The dry run runs as its step opens: the import's button waits for it, and a person need not guess why. */}
            <Button type="primary" disabled={!targetReady} onClick={() => { setStep(3); void runDry(); }}>Next: dry run</Button>
          </Flex>
        </Form>
      )}

      {step === 3 && preview && (
        <>
          <Typography.Paragraph type="secondary">The dry run reads the whole file and writes nothing: what would be inserted, updated and rejected, and why.</Typography.Paragraph>
          <Button type="primary" loading={busy} onClick={runDry}>Run the dry run</Button>
          {dry && (
            <div data-testid="import-dry-run" style={{ marginTop: 16 }}>
              <Flex gap={32} wrap style={{ marginBottom: 16 }}>
                <Statistic title="Rows read" value={dry.read} />
                <Statistic title="Would be inserted" value={dry.inserted} />
                <Statistic title="Would be updated" value={dry.updated} />
                <Statistic title="Rejected" value={dry.rejected} />
                {mode === 'replace' && targetKind === 'existing' && <Statistic title="Would be removed" value={dry.removed} />}
              </Flex>
              {dry.duplicates.length > 0 && (
                <Alert type="error" showIcon style={{ marginBottom: 12 }} title={`The key "${key}" is not unique in the file: nothing can be imported with it`}
                  description={dry.duplicates.slice(0, 10).map((d) => `"${d.key}" on rows ${d.rows.slice(0, 8).join(', ')}${d.count > 8 ? `, … (${n(d.count)} rows)` : ''}`).join(' · ')} />
              )}
              {dry.rejected > 0 && (
                <>
                  <Table size="small" rowKey="row" pagination={{ pageSize: 10, showSizeChanger: false }} dataSource={dry.rejections}
                    columns={[{ title: 'Row', dataIndex: 'row', width: 80 }, { title: 'Reason', dataIndex: 'reason' }]} />
                  <Button icon={<DownloadOutlined />} onClick={() => guard(() => downloadRejections(preview.id, preview.fileName))}>Download rejected rows (CSV)</Button>
                </>
              )}
            </div>
          )}
          <Flex gap={8} style={{ marginTop: 16 }}>
            <Button onClick={() => setStep(2)}>Back</Button>
            <Tooltip title={importBlocked}>
              {/* A disabled button takes no pointer events: the span shows its tooltip. */}
              <span>
                <Button type="primary" disabled={importBlocked !== null} onClick={start} aria-describedby={importBlocked ? 'import-blocked' : undefined}>Import {dry ? n(dry.inserted + dry.updated) : ''} rows</Button>
              </span>
            </Tooltip>
            {importBlocked && <Typography.Text type="secondary" id="import-blocked" data-testid="import-blocked" style={{ alignSelf: 'center' }}>{importBlocked}</Typography.Text>}
          </Flex>
        </>
      )}

      {step === 4 && progress && (
        <div data-testid="import-progress" data-state={progress.state} style={{ maxWidth: 720 }}>
          <Progress percent={progress.state === 'done' ? 100 : Math.min(99, dry && dry.read ? Math.floor(((progress.written + progress.rejected) / dry.read) * 100) : 0)} status={progress.state === 'done' ? 'success' : progress.state === 'running' ? 'active' : 'exception'} />
          <Typography.Text type="secondary" data-testid="import-progress-text">
            {n(progress.read)} rows read · {n(progress.written)} written · {n(progress.rejected)} rejected
          </Typography.Text>
          {running && <div style={{ marginTop: 12 }}><Button danger onClick={cancel}>Cancel import</Button></div>}
          {progress.message && (
            <Alert style={{ marginTop: 16 }} showIcon type={progress.state === 'done' ? 'success' : progress.state === 'cancelled' ? 'warning' : 'error'}
              title={progress.state === 'done' ? 'Import done' : progress.state === 'cancelled' ? 'Import cancelled' : 'Import failed'} description={progress.message} data-testid="import-result" />
          )}
          {progress.state === 'done' && progress.dataSourceId && <ImportNextStep dataSourceId={progress.dataSourceId} created={targetKind === 'new'} />}
          {!running && (
            <Flex gap={8} style={{ marginTop: 16 }}>
              {progress.rejected > 0 && <Button icon={<DownloadOutlined />} onClick={() => guard(() => downloadRejections(preview!.id, preview!.fileName))}>Download rejected rows (CSV)</Button>}
              <Button type="primary" onClick={() => { setStep(0); setPreview(null); setProgress(null); setDry(null); }}>Import another file</Button>
            </Flex>
          )}
        </div>
      )}
    </Card>
  );
}
