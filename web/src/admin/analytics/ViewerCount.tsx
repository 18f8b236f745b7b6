import { EyeOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { useAnalytics } from './useAnalytics';

/** "N viewing now" for a dashboard card (the screen that shows it calls useAnalyticsLive). */
export function ViewerCount({ dashboardId }: { dashboardId: string }) {
  const viewers = useAnalytics((s) => s.byId[dashboardId]?.viewers);
  if (viewers === undefined) return null;
  return (
    <Tag icon={<EyeOutlined />} color={viewers ? 'green' : undefined} data-testid="viewer-count" data-viewers={viewers}>
      {viewers} viewing now
    </Tag>
  );
}
