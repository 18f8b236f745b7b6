import { useState } from 'react';
import { Badge, Button, Card, Flex, Skeleton, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { IntegrationDto } from '@common/schemas/integration';
import { EmptyState, LoadError } from '../ui/States';
import { AddIntegrationDialog } from './AddIntegrationDialog';
import { IntegrationCard } from './IntegrationCard';
import { OAuthWizard, type WizardStart } from './oauth/OAuthWizard';
import { ProviderCards } from './ProviderCards';
import { useIntegrations } from './store';
import { useIntegrationsRealtime } from './useIntegrationsRealtime';

/** Data Sources > Integrations: providers, Add Integration, Active Integrations, wizard. */
export default function IntegrationsScreen() {
  useIntegrationsRealtime();
  const { items, loading, error } = useIntegrations();
  const [adding, setAdding] = useState(false);
  const [wizard, setWizard] = useState<WizardStart | null>(null);

  const authorize = (integration: IntegrationDto) => setWizard({ step: 'config', integration });

  return (
    <div data-testid="integrations-screen">
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <div style={{ flex: '1 1 240px' }}>
          <Typography.Title level={4} style={{ margin: 0 }}>Integrations</Typography.Title>
          <Typography.Text type="secondary">Connect a support desk and sync its tickets into a data source.</Typography.Text>
        </div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>Add Integration</Button>
      </Flex>

      <ProviderCards onConnect={() => setWizard({ step: 'setup', integration: null })} />

      <Card
        style={{ marginTop: 24 }}
        title={<span>Active Integrations <Badge count={items.length} showZero color="#2563eb" style={{ marginLeft: 8 }} data-testid="integrations-count" /></span>}
      >
        {error ? (
          <LoadError title="Failed to fetch integrations" detail={error} onRetry={() => void useIntegrations.getState().load()} />
        ) : loading && items.length === 0 ? (
          <Skeleton active />
        ) : items.length === 0 ? (
          <EmptyState title="No Integrations" text="Connect Zendesk to start syncing tickets." />
        ) : (
          items.map((it) => <IntegrationCard key={it.id} integration={it} onAuthorize={authorize} />)
        )}
      </Card>

      <AddIntegrationDialog
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(it) => {
          setAdding(false);
          if (it.type === 'zendesk') setWizard({ step: 'config', integration: it });
        }}
      />
      <OAuthWizard start={wizard} onClose={() => setWizard(null)} />
    </div>
  );
}
