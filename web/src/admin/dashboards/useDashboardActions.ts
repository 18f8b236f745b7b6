import { App } from 'antd';
import type { DashboardDto } from '@common/schemas/dashboard';
import { api, errorText } from '../../api/client';
import { useDashboards } from '../stores/dashboards';
import { useToast } from '../ui/toast';

/** Delete (with one confirmation text on every screen) and Publish / Unpublish, shared by every dashboard screen. */
export function useDashboardActions() {
  const { modal } = App.useApp();
  const toast = useToast();

  const confirmDelete = (d: Pick<DashboardDto, 'id' | 'name'>, afterDelete?: () => void) =>
    modal.confirm({
      title: 'Delete Dashboard',
      content: `Are you sure you want to delete the dashboard "${d.name}"? This action cannot be undone and will also delete all associated dashboard tabs.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: async () => {
        try {
          await api.delete(`/api/admin/dashboards/${encodeURIComponent(d.id)}`);
          useDashboards.getState().remove(d.id);
          toast.success('Dashboard Deleted', 'Dashboard has been deleted successfully.');
          afterDelete?.();
          void useDashboards.getState().load();
        } catch (e) {
          toast.error('Error', 'Failed to delete dashboard. Please try again.');
          console.warn('delete dashboard failed', errorText(e));
        }
      },
    });

  const setPublished = async (d: Pick<DashboardDto, 'id' | 'name'>, isPublished: boolean) => {
    try {
      const updated = await api.patch<DashboardDto>(`/api/admin/dashboards/${encodeURIComponent(d.id)}`, { isPublished });
      useDashboards.getState().upsert(updated);
      toast.success('Dashboard Updated', isPublished ? `"${d.name}" is now Live.` : `"${d.name}" is now a Draft.`);
      return true;
    } catch (e) {
      toast.error('Error', 'Failed to update dashboard. Please try again.');
      console.warn('publish dashboard failed', errorText(e));
      return false;
    }
  };

  return { confirmDelete, setPublished };
}
