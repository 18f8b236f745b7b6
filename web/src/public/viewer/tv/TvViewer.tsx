import { LazyResult } from '../lazy/LazyResult';
import { Alert, SkeletonLines } from '../ui/kit';
import { useViewerPalette } from '../ui/palette';
import { useEffect, useRef, useState } from 'react';
import { useConnection } from '../../../realtime/socket';
import { TabContent } from '../TabContent';
import type { ViewerHead, ViewerStatus } from '../viewerStore';
import { useWakeLock } from './useWakeLock';
import { useTvPaging } from './useTvPaging';

/**
 * TV mode (/dashboards/<id>?tv=1): the whole screen for the widgets, no controls, larger type on the
 * dark theme, tabs rotating every `rotate` seconds, the cursor hidden, the screen kept on, and a
 * lost connection shown in large type. Tables, board columns and a long board turn a page every
 * `?page=N` seconds (useTvPaging.ts). A click or key asks the browser for full screen.
 */
export function TvViewer({ head, status, rotate }: { head: ViewerHead | null; status: ViewerStatus; rotate: number }) {
  const token = useViewerPalette();
  const connection = useConnection((s) => s.public);
  const [index, setIndex] = useState(0);
  const tabs = head?.tabs ?? [];
  const count = tabs.length;
  const wakeLock = useWakeLock(true);
  // A board longer than the screen pages as a whole too (its columns and tables page inside).
  const page = useRef(document.scrollingElement as HTMLElement | null);
  useTvPaging(page);

  useEffect(() => {
    if (!rotate || count < 2) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), rotate * 1000);
    return () => window.clearInterval(timer);
  }, [rotate, count]);

  useEffect(() => {
    const full = () => {
      if (!document.fullscreenElement) document.documentElement.requestFullscreen?.().catch(() => {});
    };
    window.addEventListener('click', full);
    window.addEventListener('keydown', full);
    return () => {
      window.removeEventListener('click', full);
      window.removeEventListener('keydown', full);
    };
  }, []);

  const tab = tabs[index % Math.max(count, 1)];
  let body;
  if (status === 'notFound') body = <LazyResult status="404" title="Dashboard Not Found" subTitle="The requested dashboard could not be found." />;
  else if (status === 'error') body = <LazyResult status="error" title="Failed to fetch dashboard" subTitle="Trying again…" />;
  else if (!head) body = <SkeletonLines rows={10} />;
  else if (!tab) body = <LazyResult title="No Tabs Configured" subTitle="This dashboard has no tabs configured yet." />;
  else body = <TabContent key={tab.id} tab={tab} />;

  return (
    <div data-testid="tv-mode" data-wake-lock={wakeLock} style={{ minHeight: '100vh', boxSizing: 'border-box', background: 'var(--lv-bg-layout)', color: 'var(--lv-text)', cursor: 'none', padding: 'clamp(12px, 2vw, 32px)' }}>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 24, flexWrap: 'wrap', marginBottom: 20 }}>
        <h1 className="lv-title" style={{ fontSize: 40, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', minWidth: 0, flex: '0 1 auto' }}>
          {head?.dashboard.name ?? 'LiveDash'}
          {tab && count > 1 && <span className="lv-secondary" style={{ fontSize: 28, fontWeight: 400 }}> · {tab.name}</span>}
        </h1>
        <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
          {count > 1 && (
            <div style={{ display: 'flex', gap: 8 }} role="img" aria-label={`Tab ${index % count + 1} of ${count}`}>
              {tabs.map((t, i) => <span key={t.id} style={{ width: 12, height: 12, borderRadius: 6, background: i === index % count ? token.primary : token.fillSecondary }} />)}
            </div>
          )}
          {connection === 'live' && <span className="lv-secondary" style={{ fontSize: 22 }} data-testid="tv-live">● Live</span>}
        </div>
      </div>
      {connection !== 'live' && connection !== 'connecting' && (
        <Alert data-testid="tv-reconnecting" type="warning" banner title={<span style={{ fontSize: 28 }}>Reconnecting… the numbers may be out of date</span>} style={{ marginBottom: 20 }} />
      )}
      {body}
    </div>
  );
}
