import { Alert, Divider, Modal, Tabs } from 'antd';
import type { DashboardDto } from '@common/schemas/dashboard';
import { EmbedOriginsForm } from './EmbedOriginsForm';
import { ShareLinksPanel } from './ShareLinksPanel';
import { SignedEmbedPanel } from './SignedEmbedPanel';

/** The Share button's dialog on a dashboard card: share links, and embedding (allowed origins, signed embedding). */
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
              description={`Its public address (${location.origin}/dashboards/${dashboard.id}) shows every record to anyone, whatever a link or a token locks. Unpublish it to show it only through links and signed embedding.`}
            />
          )}
          <Tabs
            items={[
              { key: 'links', label: 'Share links', children: <ShareLinksPanel dashboardId={dashboard.id} /> },
              {
                key: 'embed',
                label: 'Embed',
                children: (
                  <>
                    <EmbedOriginsForm dashboardId={dashboard.id} isPublished={dashboard.isPublished} />
                    <Divider />
                    <SignedEmbedPanel dashboardId={dashboard.id} dashboardName={dashboard.name} />
                  </>
                ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
}
