import { AppstoreAddOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Col, Form, Input, Modal, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import type { DashboardDto } from '@common/schemas/dashboard';
import { TEMPLATES, fieldRoles, valueRoles, type DashboardTemplate } from '@common/widgets/templates';
import { api, errorText } from '../../../api/client';
import { useSubmit } from '../../../api/useSubmit';
import { navigateAdmin } from '../../shell/nav';
import { useDashboards } from '../../stores/dashboards';
import { useDataSources, useSourceTyping } from '../../stores/dataSources';
import { useToast } from '../../ui/toast';
import { TemplateMappingFields, useTemplateMapping } from './TemplateMapping';
import { usePreviewRecords } from '../preview/usePreviewRecords';

/** Manage Dashboards > Templates: start a dashboard from Support queue, Sales pipeline or Inventory. */
export default function TemplatesScreen() {
  const [chosen, setChosen] = useState<DashboardTemplate | null>(null);
  return (
    <div data-testid="templates-screen">
      <Typography.Title level={3} style={{ marginTop: 0 }}>Templates</Typography.Title>
      <Typography.Paragraph type="secondary">Start a dashboard from a template, mapped onto the fields of one of your data sources.</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {TEMPLATES.map((t) => (
          <Col key={t.id} xs={24} md={12} xl={8}>
            <Card
              data-testid="template-card"
              title={t.name}
              style={{ height: '100%' }}
              actions={[<Button key="use" type="primary" icon={<AppstoreAddOutlined />} onClick={() => setChosen(t)} aria-label={`Use template ${t.name}`}>Use template</Button>]}
            >
              <Typography.Paragraph>{t.description}</Typography.Paragraph>
              <Typography.Text type="secondary">Needs: {needs(t)}</Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
      {chosen && <UseTemplateDialog key={chosen.id} template={chosen} onClose={() => setChosen(null)} />}
    </div>
  );
}

function UseTemplateDialog({ template, onClose }: { template: DashboardTemplate; onClose(): void }) {
  const toast = useToast();
  const sources = useDataSources((s) => s.items);
  const [sourceId, setSourceId] = useState<string | null>(sources[0]?.id ?? null);
  const [name, setName] = useState(template.name);
  const [publish, setPublish] = useState(false);
  const submit = useSubmit(toast);
  const [tried, setTried] = useState(false);
  const preview = usePreviewRecords(sourceId);
  const mapping = useTemplateMapping(template, preview.records);
  const source = sources.find((s) => s.id === sourceId);
  const label = (f: string) => source?.keyMappings?.[f] ?? f;
  const typing = useSourceTyping(source);

  const create = async () => {
    setTried(true);
    if (!sourceId || !name.trim() || Object.keys(mapping.problems).length) return;
    await submit.run(async () => {
      const created = await api.post<DashboardDto>('/api/admin/dashboards', {
        name: name.trim(), description: template.description, dataSourceId: sourceId, isPublished: publish, configuration: { tabs: template.build(mapping.mapping) },
      });
      useDashboards.getState().upsert(created);
      onClose();
      navigateAdmin('dashboard-builder', 'widgets');
      return created;
    }, {
      success: (created) => ['Dashboard Created', `"${created.name}" was created from the ${template.name} template.`],
      failure: (e) => ['Error', `Failed to create the dashboard: ${errorText(e)}`],
    });
  };

  return (
    <Modal open width={600} title={`New dashboard from "${template.name}"`} okText="Create dashboard" onOk={create} confirmLoading={submit.busy} onCancel={onClose} data-testid="template-dialog">
      <Form layout="vertical" requiredMark={false}>
        <Form.Item label="Name" validateStatus={tried && !name.trim() ? 'error' : undefined} help={tried && !name.trim() ? 'Name is required' : undefined}>
          <Input aria-label="Name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        </Form.Item>
        <Form.Item label="Data source" validateStatus={tried && !sourceId ? 'error' : undefined} help={tried && !sourceId ? 'Data source is required' : undefined}>
          <Select aria-label="Data source" value={sourceId ?? undefined} placeholder="Select a data source" onChange={setSourceId} options={sources.map((s) => ({ value: s.id, label: s.name }))} />
        </Form.Item>
        <Typography.Paragraph type="secondary">Which field plays each part{preview.loading && sourceId ? ' (reading the fields…)' : ''}:</Typography.Paragraph>
        <TemplateMappingFields template={template} m={mapping} typing={typing} label={label} tried={tried} />
        <Checkbox checked={publish} onChange={(e) => setPublish(e.target.checked)}>Publish now</Checkbox>
      </Form>
    </Modal>
  );
}

/** "status (which values are open, in progress, closed), priority, date". */
function needs(t: DashboardTemplate): string {
  return fieldRoles(t).map((r) => {
    const values = valueRoles(t, r.key);
    return values.length ? `${r.label.toLowerCase()} (which values are ${values.map((v) => v.label.toLowerCase()).join(', ')})` : r.label.toLowerCase();
  }).join(', ');
}
