import { Alert } from 'antd';
import { useEngineStatus, useEngineStatusFeed } from './useEngineStatus';

/**
 * On the offline database engine, a warning once the records collection is past the size where a
 * write nears a second (GET /api/admin/engine), naming the way out.
 */
export function EngineBanner() {
  useEngineStatusFeed();
  const status = useEngineStatus((s) => s.status);
  if (!status?.nearSlowWrites) return null;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="engine-banner"
      title={`Offline database engine: writes are slowing down (${status.recordsCount.toLocaleString()} records; past ${status.slowWriteRecords?.toLocaleString()} one write nears a second)`}
      description={status.advice}
    />
  );
}
