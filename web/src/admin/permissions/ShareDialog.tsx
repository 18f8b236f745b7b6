import { Alert, Divider, Modal } from 'antd';
import type { DashboardDto } from '@common/schemas/dashboard';
import { EmbedOriginsForm } from './EmbedOriginsForm';
import { ShareLinksPanel } from './ShareLinksPanel';

/** The Share button's dialog on a dashboard card. */
export function ShareDialog({ dashboard, onClose }: { dashboard: DashboardDto | null; onClose(): void }) {
  return (
    <Modal open={dashboard !== null} title={dashboard ? `Share "${dashboard.name}"` : 'Share'} onCancel={onClose} footer={null} width={880} destroyOnHidden>
      {dashboard && (
        <>
          {dashboard.isPublished && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              data-testid="share-published-warning"
              title="This dashboard is published"
              description={`Its public address (${location.origin}/dashboards/${dashboard.id}) shows every record to anyone, whatever a link locks. Unpublish it to show it only through links.`}
            />
          )}
          <ShareLinksPanel dashboardId={dashboard.id} />
          <Divider />
          <EmbedOriginsForm dashboardId={dashboard.id} isPublished={dashboard.isPublished} />
        </>
      )}
    </Modal>
  );
}
