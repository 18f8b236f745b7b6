import { App } from 'antd';
import type { DashboardDto } from '@common/schemas/dashboard';
import { api, errorText } from '../../api/client';
import { sendAndSay } from '../../api/useSubmit';
import { useDashboards } from '../stores/dashboards';
import { isVersionConflict, saveDashboard } from '../stores/dashboardSave';
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
      // The dialog's OK button is busy until the answer (and closes either way).
      onOk: () =>
        sendAndSay(async () => {
          await api.delete(`/api/admin/dashboards/${encodeURIComponent(d.id)}`);
          useDashboards.getState().remove(d.id);
        }, {
          success: ['Dashboard Deleted', 'Dashboard has been deleted successfully.'],
          failure: (e) => {
            console.warn('delete dashboard failed', errorText(e));
            return ['Error', 'Failed to delete dashboard. Please try again.'];
          },
        }, toast).then((outcome) => {
          if (!outcome.ok) return;
          afterDelete?.();
          void useDashboards.getState().load();
        }),
    });

  const setPublished = async (d: Pick<DashboardDto, 'id' | 'name' | 'version'>, isPublished: boolean) => {
    const outcome = await sendAndSay(
      () => saveDashboard(d, { isPublished }),
      {
        success: ['Dashboard Updated', isPublished ? `"${d.name}" is now Live.` : `"${d.name}" is now a Draft.`],
        failure: (e) => {
          console.warn('publish dashboard failed', errorText(e));
          // A stale save is said by the conflict dialog.
          return isVersionConflict(e) ? undefined : ['Error', 'Failed to update dashboard. Please try again.'];
        },
      },
      toast,
    );
    return outcome.ok;
  };

  return { confirmDelete, setPublished };
}
