import { Alert, Typography } from 'antd';
import { useState } from 'react';
import { useEngineStatus, useEngineStatusFeed } from './useEngineStatus';

/** Closed by someone: the banner stays away until the browser tab closes. */
const DISMISSED = 'livedash:engine-banner-dismissed';

/**
 * On the offline database engine, a warning once the records collection is past the size where a
 * write nears a second (GET /api/admin/engine), naming the way out — in at most two lines (the rest
 * on hover), and closable for the session: it is advice, not an alarm to read on every screen.
 */
export function EngineBanner() {
  useEngineStatusFeed();
  const status = useEngineStatus((s) => s.status);
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED) === '1');
  if (!status?.nearSlowWrites || dismissed) return null;
  const text = `Offline database engine: writes are slowing down (${status.recordsCount.toLocaleString()} records; past ${status.slowWriteRecords?.toLocaleString()} one write nears a second). ${status.advice ?? ''}`;
  return (
    <Alert
      type="warning"
      showIcon
      banner
      closable={{ 'aria-label': 'Dismiss for this session' }}
      onClose={() => {
        sessionStorage.setItem(DISMISSED, '1');
        setDismissed(true);
      }}
      data-testid="engine-banner"
      title={<Typography.Paragraph style={{ margin: 0 }} ellipsis={{ rows: 2, tooltip: text }}>{text}</Typography.Paragraph>}
    />
  );
}
