import { Card, Divider, Flex, Skeleton, Typography } from 'antd';
import { StatusTag } from '../dashboards/StatusTag';
import { useDashboards } from '../stores/dashboards';
import { EmptyState, LoadError, SECONDARY_TEXT } from '../ui/States';
import { EmbedOriginsForm } from './EmbedOriginsForm';
import { ShareLinksPanel } from './ShareLinksPanel';

/** Permissions: every dashboard's share links and embedding origins in one place. */
export default function PermissionsScreen() {
  const { items, status, error, load } = useDashboards();
  if (status === 'error' && items.length === 0) return <LoadError title="Failed to fetch dashboards" detail={error} onRetry={() => void load()} />;
  if (status === 'idle' || (status === 'loading' && items.length === 0)) return <Skeleton active />;
  if (items.length === 0) {
    return (
      <div data-testid="permissions-empty">
        <EmptyState title="No Dashboards" text="Create a dashboard to share it." />
      </div>
    );
  }
  return (
    <Flex vertical gap={16} data-testid="permissions-screen">
      <Typography.Text style={{ color: SECONDARY_TEXT }}>
        A share link opens one dashboard — published or draft — until it is revoked or expires. Its token is shown once, when the link is created. Other sites may show a dashboard in an iframe only when their origin is allowed.
      </Typography.Text>
      {items.map((d) => (
        <Card key={d.id} data-testid="permissions-dashboard" title={<Flex gap={8} align="center">{d.name}<StatusTag isPublished={d.isPublished} /></Flex>}>
          <ShareLinksPanel dashboardId={d.id} />
          <Divider />
          <EmbedOriginsForm dashboardId={d.id} isPublished={d.isPublished} />
        </Card>
      ))}
    </Flex>
  );
}
