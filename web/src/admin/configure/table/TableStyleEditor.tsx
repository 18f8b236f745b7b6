import { Button, Card, Checkbox, Flex, Typography } from 'antd';
import { EditOutlined, StopOutlined } from '@ant-design/icons';
import { useMemo, useState } from 'react';
import { COLUMN_DEFAULT_WIDTH, PREVIEW_RECORDS } from '@common/constants';
import { fieldLabel } from '@common/formats';
import type { DashboardTab, TabConfiguration, TableColumn } from '@common/schemas/dashboard';
import { useDataSources, useSourceTyping } from '../../stores/dataSources';
import { FieldSelect, pickerFields } from '../../ui/FieldSelect';
import { useSourceRecords } from '../../stores/useSourceRecords';
import { customColumn, customFieldIds, recordFields } from '../../ui/cells';
import { LoadError } from '../../ui/States';
import { defaultColumns, normalizeColumns } from './columns';
import { ColumnFormatsEditor } from './ColumnFormatsEditor';
import { PreviewTable } from './PreviewTable';
import { useReportUnsaved } from '../unsavedEdits';
import { SaveBar } from '../SaveBar';
import { useSubmit } from '../../../api/useSubmit';

interface Props {
  tab: DashboardTab;
  dataSourceId: string | null;
  onConfig(config: TabConfiguration, toast?: string, message?: string): Promise<boolean>;
}

/** Table style editor: preview, edit mode, reorder / resize / hide / remove, Save Changes. */
export function TableStyleEditor({ tab, dataSourceId, onConfig }: Props) {
  const { records, total, status, error, reload } = useSourceRecords(dataSourceId);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<TableColumn[] | null>(null);
  // Sortable and Filterable are edits like the columns: kept until Save Changes.
  const [flags, setFlags] = useState<{ sortable: boolean; filterable: boolean } | null>(null);
  // The save says its outcome itself (useSaveTabs): this gives the busy flag and one save at a time.
  const submit = useSubmit();
  const config = tab.configuration ?? {};
  const source = useDataSources((s) => s.items.find((d) => d.id === dataSourceId));
  const labels = source?.keyMappings;
  const typing = useSourceTyping(source);
  // One name per field everywhere: the label, else "Custom Field <id>", else the key.
  const columnLabel = (name: string) => fieldLabel(name, labels);

  const fields = useMemo(() => [...recordFields(records), ...customFieldIds(records).map(customColumn)], [records]);
  const saved = useMemo(() => (config.columns?.length ? normalizeColumns(config.columns) : defaultColumns(fields)), [config.columns, fields]);
  const columns = draft ?? saved;
  const savedFlags = { sortable: config.sortable ?? true, filterable: config.filterable ?? true };
  const shownFlags = flags ?? savedFlags;
  const dirty = (draft !== null && JSON.stringify(normalizeColumns(draft)) !== JSON.stringify(saved))
    || shownFlags.sortable !== savedFlags.sortable || shownFlags.filterable !== savedFlags.filterable;
  const discard = () => {
    setDraft(null);
    setFlags(null);
    setEditing(false);
  };
  useReportUnsaved(`${tab.id}:table`, tab.name, dirty, discard);
  // Columns to add: the fields and the type model's nested leaf paths not shown yet.
  const missing = pickerFields(fields, typing).filter((f) => !columns.some((c) => c.name === f));
  const shown = records.slice(0, PREVIEW_RECORDS);

  const change = (next: TableColumn[]) => setDraft(next.map((c, order) => ({ ...c, order })));
  const save = (message?: string) =>
    submit.run(async () => {
      if (await onConfig({ ...config, ...shownFlags, columns: normalizeColumns(columns) }, 'Configuration Saved', message)) discard();
    });

  return (
    <Card data-testid="table-editor">
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 12 }}>
        <Flex gap={16} align="center" wrap>
          <Checkbox checked={shownFlags.sortable} onChange={(e) => setFlags({ ...shownFlags, sortable: e.target.checked })}>Sortable</Checkbox>
          <Checkbox checked={shownFlags.filterable} onChange={(e) => setFlags({ ...shownFlags, filterable: e.target.checked })}>Filterable</Checkbox>
        </Flex>
        <Flex gap={8}>
          {editing ? (
            <Button icon={<StopOutlined />} onClick={() => setEditing(false)}>Exit Edit Mode</Button>
          ) : (
            <Button icon={<EditOutlined />} onClick={() => { setDraft(draft ?? saved); setEditing(true); }}>Edit Mode</Button>
          )}
          <SaveBar dirty={dirty} saving={submit.busy} onSave={(m) => void save(m)} onDiscard={discard} />
        </Flex>
      </Flex>
      {editing && missing.length > 0 && (
        <Flex gap={8} align="center" style={{ marginBottom: 8 }}>
          <Typography.Text type="secondary">Add column:</Typography.Text>
          <FieldSelect
            style={{ minWidth: 260 }}
            placeholder="Pick a field or type a path"
            value={null}
            fields={missing}
            typing={typing}
            label={columnLabel}
            onChange={(name: string) => change([...columns, { name, visible: true, width: COLUMN_DEFAULT_WIDTH, order: columns.length }])}
            aria-label="Add column"
          />
        </Flex>
      )}
      {status === 'error' ? (
        <LoadError title="Failed to fetch raw data" detail={error} onRetry={reload} />
      ) : (
        <>
          <PreviewTable columns={columns} records={shown} editing={editing} loading={status !== 'ready'} labelOf={columnLabel} typing={typing} onChange={change} />
          <Typography.Text type="secondary" data-testid="table-caption" style={{ display: 'block', marginTop: 8 }}>
            Showing {shown.length} of {total} records
            {editing && ' (Edit Mode - Changes will be saved when you click Save Changes)'}
          </Typography.Text>
          {editing && columns.length > 0 && (
            <div style={{ marginTop: 16 }}>
              <ColumnFormatsEditor columns={columns} labelOf={columnLabel} onChange={change} />
            </div>
          )}
        </>
      )}
    </Card>
  );
}
