import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { guardedLeave } from '../../leaveGuard';
import { ADMIN_NAVIGATE_EVENT, normalizePlace, type AdminNavigateDetail, type MainTab } from './nav';

export interface Place {
  mainTab: MainTab;
  subTab: string;
  /** The dashboard open in the Configure editor, if any (or whose report the Reports screen schedules). */
  dashboardId: string | null;
  /** The data source a screen shows (?source=<id>: API docs, Export Data), if one was chosen. */
  source: string | null;
}

type Go = (mainTab: string, subTab?: string, dashboardId?: string | null, source?: string | null) => void;

/**
 * The console's place lives in the URL query (?tab=…&sub=…&dashboard=…) so reload and the back
 * button keep it. `go` pushes a history entry; the in-page navigation event calls it too.
 */
export function usePlace(): { place: Place; go: Go } {
  const [params, setParams] = useSearchParams();
  const { mainTab, subTab } = normalizePlace(params.get('tab'), params.get('sub'));
  const withDashboard = (mainTab === 'dashboard-builder' && (subTab === 'configure' || subTab === 'widgets')) || (mainTab === 'published-dashboards' && subTab === 'reports');
  const dashboardId = withDashboard ? params.get('dashboard') : null;
  const source = params.get('source');

  const go = useCallback<Go>(
    (main, sub, dashboard, nextSource) => {
      const next = normalizePlace(main, sub ?? null);
      const query: Record<string, string> = { tab: next.mainTab, sub: next.subTab };
      if (dashboard) query.dashboard = dashboard;
      // Moving within a main tab keeps the chosen source (the docs' sections all follow it).
      const keep = nextSource === undefined && next.mainTab === mainTab ? source : nextSource;
      if (keep) query.source = keep;
      guardedLeave(() => setParams(query));
    },
    [setParams, mainTab, source],
  );

  useEffect(() => {
    const onNavigate = (e: Event) => {
      const detail = (e as CustomEvent<AdminNavigateDetail>).detail;
      if (detail?.mainTab) go(detail.mainTab, detail.subTab, detail.dashboardId, detail.source);
    };
    window.addEventListener(ADMIN_NAVIGATE_EVENT, onNavigate);
    return () => window.removeEventListener(ADMIN_NAVIGATE_EVENT, onNavigate);
  }, [go]);

  return { place: { mainTab, subTab, dashboardId, source }, go };
}

