import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { guardedLeave } from '../../leaveGuard';
import { ADMIN_NAVIGATE_EVENT, normalizePlace, type AdminNavigateDetail, type MainTab } from './nav';

export interface Place {
  mainTab: MainTab;
  subTab: string;
  /** The dashboard open in the Configure editor, if any. */
  dashboardId: string | null;
}

/**
 * The console's place lives in the URL query (?tab=…&sub=…&dashboard=…) so reload and the back
 * button keep it. `go` pushes a history entry; the in-page navigation event calls it too.
 */
export function usePlace(): { place: Place; go(mainTab: string, subTab?: string, dashboardId?: string | null): void } {
  const [params, setParams] = useSearchParams();
  const { mainTab, subTab } = normalizePlace(params.get('tab'), params.get('sub'));
  const dashboardId = mainTab === 'dashboard-builder' && subTab === 'configure' ? params.get('dashboard') : null;

  const go = useCallback(
    (main: string, sub?: string, dashboard?: string | null) => {
      const next = normalizePlace(main, sub ?? null);
      const query: Record<string, string> = { tab: next.mainTab, sub: next.subTab };
      if (dashboard) query.dashboard = dashboard;
      guardedLeave(() => setParams(query));
    },
    [setParams],
  );

  useEffect(() => {
    const onNavigate = (e: Event) => {
      const detail = (e as CustomEvent<AdminNavigateDetail>).detail;
      if (detail?.mainTab) go(detail.mainTab, detail.subTab, detail.dashboardId);
    };
    window.addEventListener(ADMIN_NAVIGATE_EVENT, onNavigate);
    return () => window.removeEventListener(ADMIN_NAVIGATE_EVENT, onNavigate);
  }, [go]);

  return { place: { mainTab, subTab, dashboardId }, go };
}

