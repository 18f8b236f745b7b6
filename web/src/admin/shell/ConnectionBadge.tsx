import { Badge, Tooltip } from 'antd';
import { useConnection } from '../../realtime/socket';

const LOOK = {
  live: { status: 'success', text: 'Live', tip: 'Changes from other tabs and ingests appear at once.' },
  connecting: { status: 'processing', text: 'Connecting', tip: 'Opening the live connection…' },
  reconnecting: { status: 'warning', text: 'Reconnecting', tip: 'Live connection lost; retrying. Lists refresh when it is back.' },
  offline: { status: 'error', text: 'Offline', tip: 'No live connection.' },
} as const;

/** The top bar's live indicator: "Live" only while the admin socket is connected; `compact` shows the dot alone (phones). */
export function ConnectionBadge({ compact = false }: { compact?: boolean }) {
  const state = useConnection((s) => s.admin);
  const look = LOOK[state];
  return (
    <Tooltip title={compact ? `${look.text}: ${look.tip}` : look.tip}>
      <span data-testid="connection-state" data-state={state} aria-label={look.text} style={{ padding: compact ? '0 6px' : undefined }}>
        <Badge status={look.status} text={compact ? undefined : look.text} />
      </span>
    </Tooltip>
  );
}
