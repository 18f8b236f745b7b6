import { useEffect } from 'react';
import { Alert, Button } from 'antd';
import { AppstoreAddOutlined } from '@ant-design/icons';
import type { IntegrationDto } from '@common/schemas/integration';
import { navigateAdmin } from '../shell/nav';
import { useDashboards } from '../stores/dashboards';
import { useIntegrations } from './store';

/** After an integration's first records landed, while no dashboard shows its data source: build one on it. */
export function NextStep({ integration: it }: { integration: IntegrationDto }) {
  const { items, status, load } = useDashboards();
  useEffect(() => {
    if (status === 'idle') void load();
  }, [status, load]);
  const totals = useIntegrations((st) => st.totals[it.id]);
  const landed = it.dataSourceId && totals && 'totalRecords' in totals && totals.totalRecords > 0;
  if (!landed || status !== 'ready' || items.some((d) => d.dataSourceId === it.dataSourceId)) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginTop: 8 }}
      data-testid="next-step"
      title="Next step: build a dashboard on its data source"
      description={`The records are in the data source "${it.name}". A dashboard shows them live, and updates as each sync lands.`}
      action={
        <Button type="primary" icon={<AppstoreAddOutlined />} onClick={() => navigateAdmin('dashboard-builder', 'builder', undefined, it.dataSourceId ?? undefined)}>
          Build a dashboard
        </Button>
      }
    />
  );
}
