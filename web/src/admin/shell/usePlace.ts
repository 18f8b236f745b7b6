import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { guardedLeave, hasLeaveGuard } from './leaveGuard';
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

  useBackButtonGuard();
  return { place: { mainTab, subTab, dashboardId }, go };
}

/**
 * The browser's back button while a leave guard is set: the router never hears the step (this
 * capture listener runs before its own), the address steps forward again, and only once the admin
 * agreed does the console go back for real.
 */
function useBackButtonGuard(): void {
  useEffect(() => {
    let restoring = false;
    let leaving = false;
    const onPop = (e: PopStateEvent) => {
      if (restoring) {
        restoring = false;
        e.stopImmediatePropagation();
        return;
      }
      if (leaving || !hasLeaveGuard()) {
        leaving = false;
        return;
      }
      e.stopImmediatePropagation();
      restoring = true;
      window.history.go(1);
      guardedLeave(() => {
        leaving = true;
        window.history.go(-1);
      });
    };
    window.addEventListener('popstate', onPop, true);
    return () => window.removeEventListener('popstate', onPop, true);
  }, []);
}
