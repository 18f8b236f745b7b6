import { useState } from 'react';
import { Badge, Button, Card, Flex, Skeleton, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { IntegrationDto } from '@common/schemas/integration';
import { EmptyState, LoadError } from '../ui/States';
import { AddIntegrationDialog } from './AddIntegrationDialog';
import { IntegrationCard } from './IntegrationCard';
import { OAuthWizard, type WizardStart } from './oauth/OAuthWizard';
import { PullIntegrationDialog, type PullDialogStart } from './forms/PullIntegrationDialog';
import { pullFormOf } from './forms/registry';
import { ProviderCards } from './ProviderCards';
import { useIntegrations } from './store';
import { useIntegrationsRealtime } from './useIntegrationsRealtime';

/** Data Sources > Integrations: providers, Add Integration, Active Integrations, wizard. */
export default function IntegrationsScreen() {
  useIntegrationsRealtime();
  const { items, loading, error } = useIntegrations();
  const [adding, setAdding] = useState(false);
  const [wizard, setWizard] = useState<WizardStart | null>(null);
  const [pull, setPull] = useState<PullDialogStart | null>(null);

  const authorize = (integration: IntegrationDto) => setWizard({ step: 'config', integration });
  const edit = (integration: IntegrationDto) => {
    const form = pullFormOf(integration.type);
    if (form) setPull({ form, integration });
  };
  const connect = (type: string, prefill?: { name: string; description: string }) => {
    const form = pullFormOf(type);
    if (form) setPull({ form, integration: null, prefill });
    else setWizard({ step: 'setup', integration: null });
  };

  return (
    <div data-testid="integrations-screen">
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div style={{ flex: '1 1 240px' }}>
          <Typography.Title level={4} style={{ margin: 0 }}>Integrations</Typography.Title>
          <Typography.Text type="secondary">Connect a support desk, an HTTP API or a database and sync its records into a data source.</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>Add Integration</Button>
      </Flex>

      <ProviderCards onConnect={connect} />

      <Card
        style={{ marginTop: 24 }}
        title={<span>Active Integrations <Badge count={items.length} showZero color="#2563eb" style={{ marginLeft: 8 }} data-testid="integrations-count" /></span>}
      >
        {error ? (
          <LoadError title="Failed to fetch integrations" detail={error} onRetry={() => void useIntegrations.getState().load()} />
        ) : loading && items.length === 0 ? (
          <Skeleton active />
        ) : items.length === 0 ? (
          <EmptyState title="No Integrations" text="Connect Zendesk, an HTTP API or a database to start syncing records." />
        ) : (
          items.map((it) => <IntegrationCard key={it.id} integration={it} onAuthorize={authorize} onEdit={edit} />)
        )}
      </Card>

      <AddIntegrationDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(it) => {
          setAdding(false);
          if (it.type === 'zendesk') setWizard({ step: 'config', integration: it });
        }}
        onPull={(type, prefill) => {
          setAdding(false);
          connect(type, prefill);
        }}
      />
      <PullIntegrationDialog start={pull} onClose={() => setPull(null)} />
      <OAuthWizard start={wizard} onClose={() => setWizard(null)} />
    </div>
  );
}
