import { Divider, Modal } from 'antd';
import type { DashboardDto } from '@common/schemas/dashboard';
import { EmbedOriginsForm } from './EmbedOriginsForm';
import { ShareLinksPanel } from './ShareLinksPanel';

/** The Share button's dialog on a dashboard card. */
export function ShareDialog({ dashboard, onClose }: { dashboard: DashboardDto | null; onClose(): void }) {
  return (
    <Modal open={dashboard !== null} title={dashboard ? `Share "${dashboard.name}"` : 'Share'} onCancel={onClose} footer={null} width={880} destroyOnHidden>
      {dashboard && (
        <>
          <ShareLinksPanel dashboardId={dashboard.id} />
          <Divider />
          <EmbedOriginsForm dashboardId={dashboard.id} isPublished={dashboard.isPublished} />
        </>
      )}
    </Modal>
  );
}
