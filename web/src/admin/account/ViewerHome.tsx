import { Button, Card, Flex, List, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { DashboardDto } from '@common/schemas/dashboard';
import { api, errorText } from '../../api/client';
import { useSession } from '../../api/session';
import { StatusTag } from '../dashboards/StatusTag';
import { LoadError } from '../ui/States';
import { AccountButton } from './AccountDrawer';
import { signOutNow } from './api';

/** A viewer's console: every dashboard of the team (drafts too, or their chosen ones), opened read-only. */
export function ViewerHome() {
  const me = useSession((s) => s.me);
  const [items, setItems] = useState<DashboardDto[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => api.get<DashboardDto[]>('/api/admin/dashboards').then(setItems, (e: unknown) => setError(errorText(e)));
  useEffect(() => {
    void load();
  }, []);
  return (
    <div style={{ maxWidth: 880, margin: '0 auto', padding: 24 }} data-testid="viewer-home">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }} data-testid="admin-header">
        <Typography.Title level={3} style={{ margin: 0 }}>Dashboards</Typography.Title>
        <Flex gap={8}>
          <AccountButton />
          <Button onClick={() => void signOutNow()}>Sign out</Button>
        </Flex>
      </Flex>
      <Typography.Paragraph type="secondary">Signed in as {me?.user?.email} (viewer): dashboards open read-only, drafts included.</Typography.Paragraph>
      {error && !items ? <LoadError title="Failed to fetch dashboards" detail={error} onRetry={() => void load()} /> : !items ? <Skeleton active /> : (
        <Card>
          <List
            dataSource={items}
            locale={{ emptyText: 'No dashboards yet' }}
            renderItem={(d) => (
              <List.Item actions={[<a key="open" href={`/dashboards/${d.id}`} target="_blank" rel="noopener">Open</a>]} data-testid="viewer-dashboard">
                <Flex gap={8} align="center">{d.name}<StatusTag isPublished={d.isPublished} /></Flex>
              </List.Item>
            )}
          />
        </Card>
      )}
    </div>
  );
}
