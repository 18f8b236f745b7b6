import { Button, Card, Flex, Form, Input, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { DASHBOARD_REFRESH_MS } from '@common/constants';
import type { DashboardDto } from '@common/schemas/dashboard';
import { api, errorText } from '../../api/client';
import { useSubmit } from '../../api/useSubmit';
import { useDashboards } from '../stores/dashboards';
import { isVersionConflict, saveDashboard, useDashboardSaves, useHeldBase } from '../stores/dashboardSave';
import { useDataSources } from '../stores/dataSources';
import { useToast } from '../ui/toast';
import { StatusTag } from './StatusTag';
import { useDashboardActions } from './useDashboardActions';

interface Values {
  name: string;
  description: string;
  dataSourceId?: string;
}

/** Create or edit a dashboard: name and data source required, with Publish / Unpublish. */
export function DashboardForm({ dashboard, onSaved, initialSourceId }: { dashboard: DashboardDto | null; onSaved(d: DashboardDto): void; initialSourceId?: string }) {
  const [form] = Form.useForm<Values>();
  const sources = useDataSources((s) => s.items);
  const toast = useToast();
  const { setPublished } = useDashboardActions();
  const sending = useSubmit(toast);
  const name = Form.useWatch('name', form);
  const dataSourceId = Form.useWatch('dataSourceId', form);
  const filled = Boolean(name?.trim() && dataSourceId);
  // Touched: saves name the version the typing began on (a rename pushed meanwhile is refused and shown, not overwritten).
  const [touched, setTouched] = useState(false);
  useHeldBase(dashboard ?? undefined, touched);
  const theirsLoaded = useDashboardSaves((s) => s.theirsLoaded);
  const isNew = !dashboard;

  // Follow changes pushed from elsewhere (another admin tab) until the user edits the form.
  useEffect(() => {
    if (form.isFieldsTouched()) return;
    form.setFieldsValue({ name: dashboard?.name ?? '', description: dashboard?.description ?? '', dataSourceId: dashboard?.dataSourceId ?? (isNew ? initialSourceId : undefined) });
  }, [dashboard?.id, dashboard?.name, dashboard?.description, dashboard?.dataSourceId, form, isNew, initialSourceId]);
  // "Load theirs" in the conflict dialog: the typing is given up, the form shows the dashboard as it is now.
  useEffect(() => {
    if (!theirsLoaded) return;
    form.resetFields();
    const d = useDashboards.getState().items.find((x) => x.id === dashboard?.id);
    form.setFieldsValue({ name: d?.name ?? '', description: d?.description ?? '', dataSourceId: d?.dataSourceId ?? undefined });
    setTouched(false);
  }, [theirsLoaded]);

  const submit = async () => {
    const v = form.getFieldsValue();
    if (!v.name?.trim() || !v.dataSourceId) {
      toast.error('Validation Error', 'Please fill in all required fields.');
      return;
    }
    const source = sources.find((s) => s.id === v.dataSourceId);
    await sending.run(async () => {
      const saved = dashboard
        ? await saveDashboard(dashboard, { name: v.name.trim(), description: v.description ?? '', dataSourceId: v.dataSourceId })
        : await api.post<DashboardDto>('/api/admin/dashboards', {
          name: v.name.trim(),
          description: v.description ?? '',
          dataSourceId: v.dataSourceId,
          configuration: { keyMappings: source?.keyMappings ?? {}, refreshInterval: DASHBOARD_REFRESH_MS },
        });
      useDashboards.getState().upsert(saved);
      setTouched(false);
      onSaved(saved);
      return saved;
    }, {
      success: (saved) => (dashboard ? ['Dashboard Updated', `"${saved.name}" has been updated.`] : ['Dashboard Created', `"${saved.name}" has been created.`]),
      failure: (e) => {
        console.warn('save dashboard failed', errorText(e));
        // A stale save is said by the conflict dialog; the typing stays in the form.
        if (isVersionConflict(e)) return undefined;
        return ['Error', dashboard ? 'Failed to update dashboard. Please try again.' : 'Failed to create dashboard. Please try again.'];
      },
    });
  };

  return (
    <Card
      title={dashboard ? 'Edit Dashboard' : 'Create New Dashboard'}
      extra={dashboard && <StatusTag isPublished={dashboard.isPublished} />}
      data-testid="dashboard-form"
    >
      <Form form={form} name="dashboardForm" layout="vertical" onFinish={submit} onValuesChange={() => setTouched(true)} requiredMark>
        <Form.Item label="Name" name="name" required>
          <Input placeholder="e.g. Support Overview" />
        </Form.Item>
        <Form.Item label="Description" name="description">
          <Input.TextArea rows={3} placeholder="What this dashboard shows" />
        </Form.Item>
        <Form.Item label="Data Source" name="dataSourceId" required>
          <Select
            placeholder="Select a data source"
            aria-label="Data Source"
            showSearch={{ optionFilterProp: 'label' }}
            options={sources.map((s) => ({ value: s.id, label: `${s.name} (${s.sourceId})` }))}
            notFoundContent="No data sources: create one under Data Sources first"
          />
        </Form.Item>
        {dashboard && (
          <Form.Item label="Published">
            <Flex align="center" gap={8}>
              <Button
                type={dashboard.isPublished ? 'default' : 'primary'}
                ghost={!dashboard.isPublished}
                onClick={() => void setPublished(dashboard, !dashboard.isPublished)}
                data-testid="publish-toggle"
              >
                {dashboard.isPublished ? 'Unpublish' : 'Publish'}
              </Button>
              <Typography.Text type="secondary">
                {dashboard.isPublished ? 'Live: anyone can view it at ' : 'Draft: only admins can see it. Publish to make it public at '}
                <Typography.Text code>/dashboards/{dashboard.id}</Typography.Text>
              </Typography.Text>
            </Flex>
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" disabled={!filled} loading={sending.busy}>
          {dashboard ? 'Update Dashboard' : 'Create Dashboard'}
        </Button>
      </Form>
    </Card>
  );
}
