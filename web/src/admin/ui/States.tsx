import { Button, Empty, Result } from 'antd';
import type { ReactNode } from 'react';

/**
 * Secondary text of the console: antd's default (black at 45 %, 3.4:1 on white) is too faint for the
 * 12 px dates and ids; this one reads at about 6:1 (WCAG AA needs 4.5:1).
 */
export const SECONDARY_TEXT = 'rgba(0, 0, 0, 0.62)';

/** A load failure shown where the data would be, with a retry. */
export function LoadError({ title, detail, onRetry }: { title: string; detail?: string | null; onRetry(): void }) {
  return (
    <div data-testid="load-error" role="alert">
      <Result status="warning" title={title} subTitle={detail ?? undefined} extra={<Button type="primary" onClick={onRetry}>Retry</Button>} />
    </div>
  );
}

/** Empty state with a bold title and a text, written "Title - text". */
export function EmptyState({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <Empty
      style={{ padding: '32px 0' }}
      description={
        <div>
          <div style={{ fontWeight: 600, fontSize: 16 }}>{title}</div>
          {text && <div style={{ color: SECONDARY_TEXT }}>{text}</div>}
        </div>
      }
    >
      {action}
    </Empty>
  );
}

/** An admin-only screen reached by URL by someone else: who may open it, and what to do. */
export function AdminsOnly({ label, what }: { label: string; what: string }) {
  return (
    <div data-testid="admins-only">
      <EmptyState title={`Only admins can ${what}`} text={`${label} is for the admins of your team. Ask one of them if you need something here.`} />
    </div>
  );
}

/** For a place the console has no screen for. */
export function NotAvailable({ label }: { label: string }) {
  return (
    <div data-testid="not-available">
      <EmptyState title={`${label} is not available yet`} text="This part of the admin console has not been built yet. Use the other sections in the sidebar." />
    </div>
  );
}
