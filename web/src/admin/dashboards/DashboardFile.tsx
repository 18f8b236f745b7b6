import { DownloadOutlined, ImportOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Select, Tooltip, Typography, Upload } from 'antd';
import { useState } from 'react';
import type { DashboardDto } from '@common/schemas/dashboard';
import type { DashboardDefinition } from '@common/schemas/dashboardVersion';
import { api, errorText } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { useDashboards } from '../stores/dashboards';
import { useDataSources } from '../stores/dataSources';
import { useToast } from '../ui/toast';

/** A file name from the dashboard's name, safe on any disk (the server's Content-Disposition says the same). */
const fileNameOf = (name: string) => `${name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim() || 'dashboard'}.dashboard.json`;

/** Export: the dashboard as one JSON file (GET …/definition), with no id of this server. */
export function ExportDashboardButton({ dashboard }: { dashboard: Pick<DashboardDto, 'id' | 'name'> }) {
  const toast = useToast();
  const download = async (e: React.MouseEvent) => {
    e.stopPropagation();
    try {
      const file = await api.get<DashboardDefinition>(`/api/admin/dashboards/${encodeURIComponent(dashboard.id)}/definition`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(file.name);
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      toast.error('Not exported', errorText(err));
    }
  };
  return (
    <Tooltip title="Export as a file">
      <Button type="text" aria-label={`Export ${dashboard.name}`} icon={<DownloadOutlined />} onClick={(e) => void download(e)} />
    </Tooltip>
  );
}

/**
 * Import: a dashboard file (from Export, here or on another server) becomes a new draft dashboard on
 * a chosen data source. The server checks every field the file reads against that source; what it
 * refuses ("Widget 'Revenue by region' uses the field region, which Sales has not") is shown here.
 */
export function ImportDashboardButton({ onImported }: { onImported(d: DashboardDto): void }) {
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<{ name: string; definition: Record<string, unknown> } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dataSourceId, setDataSourceId] = useState<string | undefined>();
  const [name, setName] = useState('');
  const sources = useDataSources((s) => s.items);
  const toast = useToast();
  const sending = useSubmit();
  const close = () => {
    setOpen(false);
    setFile(null);
    setFileError(null);
    setName('');
  };
  const read = async (f: File) => {
    setFileError(null);
    try {
      const definition = JSON.parse(await f.text()) as unknown;
      if (!definition || typeof definition !== 'object' || Array.isArray(definition)) throw new Error('not an object');
      setFile({ name: f.name, definition: definition as Record<string, unknown> });
      if (typeof (definition as { name?: unknown }).name === 'string') setName((definition as { name: string }).name);
    } catch {
      setFile(null);
      setFileError(`${f.name} is not a dashboard file (JSON as Export writes it).`);
    }
  };
  const importIt = () =>
    sending.run(async () => {
      const created = await api.post<DashboardDto>('/api/admin/dashboards/import', { definition: file?.definition, dataSourceId, ...(name.trim() ? { name: name.trim() } : {}) });
      useDashboards.getState().upsert(created);
      toast.success('Dashboard imported', `"${created.name}" is a new draft.`);
      close();
      onImported(created);
    });
  return (
    <>
      <Button block icon={<ImportOutlined />} onClick={() => setOpen(true)} style={{ marginBottom: 12 }}>Import from a file</Button>
      <Modal
        open={open}
        title="Import a dashboard"
        onCancel={close}
        okText="Import"
        okButtonProps={{ disabled: !file || !dataSourceId, loading: sending.busy }}
        onOk={() => void importIt()}
        rootClassName="import-dashboard"
      >
        <Typography.Paragraph type="secondary">
          A file made by Export, on this server or another. It becomes a new draft dashboard on the data source you choose, which must have every field its widgets, filters and styles read.
        </Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label="File" required validateStatus={fileError ? 'error' : undefined} help={fileError}>
            <Upload accept=".json,application/json" maxCount={1} showUploadList={false} beforeUpload={(f) => { void read(f); return false; }}>
              <Button icon={<UploadOutlined />}>{file ? file.name : 'Choose a .dashboard.json file'}</Button>
            </Upload>
          </Form.Item>
          <Form.Item label="Onto data source" required>
            <Select
              aria-label="Onto data source"
              placeholder="Select a data source"
              value={dataSourceId}
              onChange={setDataSourceId}
              showSearch={{ optionFilterProp: 'label' }}
              options={sources.map((s) => ({ value: s.id, label: `${s.name} (${s.sourceId})` }))}
            />
          </Form.Item>
          <Form.Item label="Name">
            <Input aria-label="Name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} placeholder="The file's name" />
          </Form.Item>
        </Form>
        {sending.error && <Alert type="error" showIcon title="Not imported" description={sending.error} data-testid="import-error" />}
      </Modal>
    </>
  );
}
