import { DeleteOutlined, FilterOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Badge, Button, Drawer, Flex, Form, Input, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { DashboardDto } from '@common/schemas/dashboard';
import { DashboardFilters, MAX_DASHBOARD_FILTERS, type DashboardFilter, type DashboardFilterKind } from '@common/schemas/widgets/dashboardFilter';
import type { DataSourceDto } from '@common/schemas/dataSource';
import { ALL_TIME, RANGE_PRESETS } from '@common/time/timeRanges';
import { errorText } from '../../api/client';
import { isVersionConflict, saveDashboard } from '../stores/dashboardSave';
import { useDraft } from '../ui/useDraft';
import { useSourceTyping } from '../stores/dataSources';
import { FieldSelect, pickerFields } from '../ui/FieldSelect';
import { useToastSubmit } from '../ui/toast';
import { SaveBar } from './SaveBar';
import { useReportUnsaved } from './unsavedEdits';

const KIND_LABELS: Record<DashboardFilterKind, string> = { category: 'Category (pick values)', date: 'Date range', number: 'Number range (min – max)' };

/** An id for the page address from the field ("Major Genre" → "major-genre"), unique among the others. */
function filterIdFor(field: string, taken: Set<string>): string {
  const base = field.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 30) || 'filter';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

/**
 * The dashboard's filter bar, edited like every Configure editor: a draft until "Save filters",
 * and every way out asks while it is unsaved (unsavedEdits.ts). The drawer only hides the draft.
 */
export function FiltersEditor({ dashboard, source }: { dashboard: DashboardDto; source: DataSourceDto | null }) {
  const saved = JSON.stringify(dashboard.configuration.filters ?? []);
  const edits = useDraft<DashboardFilter[]>(saved);
  const { draft, setDraft, dirty } = edits;
  const [open, setOpen] = useState(false);
  const submit = useToastSubmit();
  const [tried, setTried] = useState(false);
  const discard = () => {
    edits.discard();
    setTried(false);
  };
  useReportUnsaved(`${dashboard.id}:filters`, 'Dashboard filters', dirty, discard);

  const typing = useSourceTyping(source);
  const fields = useMemo(() => pickerFields(source?.fields ?? [], typing), [source?.fields, typing]);
  const label = (f: string) => source?.keyMappings[f] ?? f;
  const checked = DashboardFilters.safeParse(draft);
  const problems: Record<string, string> = {};
  if (!checked.success) for (const i of checked.error.issues) problems[i.path.join('.')] ??= i.message;
  const savedIds = new Set((JSON.parse(saved) as DashboardFilter[]).map((f) => f.id));

  const change = (i: number, patch: Partial<DashboardFilter>) => setDraft(draft.map((f, j) => (j === i ? ({ ...f, ...patch } as DashboardFilter) : f)));
  const setField = (i: number, field: string) => {
    const f = draft[i];
    // A new filter takes its address name from its field; a saved one keeps it (links already carry it).
    const taken = new Set(draft.filter((_, j) => j !== i).map((x) => x.id));
    change(i, savedIds.has(f.id) ? { field } : { field, id: filterIdFor(field, taken) });
  };
  const setKind = (i: number, kind: DashboardFilterKind) => {
    const f = draft[i];
    const next = kind === 'date' ? { id: f.id, kind, field: f.field || source?.timeField || '', label: f.label, range: ALL_TIME } : { id: f.id, kind, field: f.field, label: f.label };
    setDraft(draft.map((x, j) => (j === i ? (next as DashboardFilter) : x)));
  };
  const add = () => {
    const taken = new Set(draft.map((f) => f.id));
    setDraft([...draft, { id: filterIdFor(`filter-${draft.length + 1}`, taken), kind: 'category', field: '' }]);
  };
  const save = async (message?: string) => {
    setTried(true);
    if (!checked.success) return;
    const filters = checked.data;
    await submit.run(async () => {
      await saveDashboard(dashboard, { configuration: { filters }, ...(message ? { message } : {}) });
      setTried(false);
    }, { success: ['Filters saved', 'Viewers see the new filter bar.'], failure: (e) => (isVersionConflict(e) ? undefined : ['Filters not saved', errorText(e)]) });
  };
  const problem = (path: string) => (tried || draft.length > MAX_DASHBOARD_FILTERS ? problems[path] : undefined);

  return (
    <>
      <Badge count={draft.length} size="small" color={dirty ? 'orange' : 'blue'}>
        <Button icon={<FilterOutlined />} onClick={() => setOpen(true)} data-testid="filters-open">Filters</Button>
      </Badge>
      <Drawer open={open} onClose={() => setOpen(false)} title="Dashboard filters" size="min(640px, 100vw)" data-testid="filters-editor" extra={<SaveBar dirty={dirty} saving={submit.busy} onSave={(m) => void save(m)} onDiscard={discard} saveLabel="Save filters" />}>
        <Typography.Paragraph type="secondary">
          Viewers narrow every widget, table and bucket board of this dashboard with these (at most {MAX_DASHBOARD_FILTERS}); their choice is part of the page address, so a filtered view is a link. A widget can opt out in its settings.
        </Typography.Paragraph>
        {tried && problems[''] && <Alert type="error" showIcon title={problems['']} style={{ marginBottom: 12 }} />}
        <Form layout="vertical" requiredMark={false}>
          {draft.map((f, i) => (
            <Flex key={i} gap={8} wrap align="start" data-testid="filter-row" style={{ borderBottom: '1px solid #f0f0f0', marginBottom: 12 }}>
              <Form.Item label="Kind" style={{ minWidth: 180 }}>
                <Select aria-label={`Filter ${i + 1} kind`} value={f.kind} onChange={(k) => setKind(i, k)} options={Object.entries(KIND_LABELS).map(([value, l]) => ({ value, label: l }))} />
              </Form.Item>
              <Form.Item label="Field" style={{ minWidth: 200, flex: 1 }} validateStatus={problem(`${i}.field`) ? 'error' : undefined} help={problem(`${i}.field`)}>
                <FieldSelect aria-label={`Filter ${i + 1} field`} placeholder="Select a field" value={f.field || undefined} onChange={(v) => setField(i, (v as string) ?? '')} fields={fields} typing={typing} label={label} />
              </Form.Item>
              <Form.Item label="Label" style={{ width: 150 }} validateStatus={problem(`${i}.label`) ? 'error' : undefined} help={problem(`${i}.label`)}>
                <Input aria-label={`Filter ${i + 1} label`} placeholder={f.field ? label(f.field) : 'Its field'} value={f.label ?? ''} maxLength={100} onChange={(e) => change(i, { label: e.target.value || undefined })} />
              </Form.Item>
              {f.kind === 'date' && (
                <Form.Item label="Starts at" style={{ width: 170 }}>
                  <Select
                    aria-label={`Filter ${i + 1} default range`}
                    value={String(Math.max(0, RANGE_PRESETS.findIndex((p) => JSON.stringify(p.range) === JSON.stringify(f.range))))}
                    onChange={(v) => change(i, { range: RANGE_PRESETS[Number(v)].range })}
                    options={RANGE_PRESETS.map((p, j) => ({ value: String(j), label: p.label }))}
                  />
                </Form.Item>
              )}
              <Form.Item label=" ">
                <Button danger icon={<DeleteOutlined />} aria-label={`Remove filter ${i + 1}`} onClick={() => setDraft(draft.filter((_, j) => j !== i))} />
              </Form.Item>
            </Flex>
          ))}
        </Form>
        <Button icon={<PlusOutlined />} onClick={add} disabled={draft.length >= MAX_DASHBOARD_FILTERS}>
          Add filter{draft.length >= MAX_DASHBOARD_FILTERS ? ` (at most ${MAX_DASHBOARD_FILTERS})` : ''}
        </Button>
      </Drawer>
    </>
  );
}
