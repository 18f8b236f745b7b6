import { useCallback, useState, useSyncExternalStore } from 'react';

/** Below this width the sidebar becomes a drawer (antd's md breakpoint). */
export const DRAWER_BELOW_PX = 768;
const COLLAPSED_KEY = 'livedash.admin.sidebarCollapsed';
const PHONE_QUERY = `(max-width: ${DRAWER_BELOW_PX - 0.02}px)`;

function subscribe(onChange: () => void) {
  const mq = window.matchMedia(PHONE_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** True below 768 px; read synchronously so the first paint already has the right layout. */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE_QUERY).matches, () => false);
}

function storedCollapsed(): boolean {
  try {
    const v = localStorage.getItem(COLLAPSED_KEY);
    if (v === 'true' || v === 'false') return v === 'true';
  } catch {
    // storage blocked: fall back to the width
  }
  // Tablets start with the narrow sidebar so the content keeps its room.
  return typeof window !== 'undefined' && window.innerWidth < 992;
}

/** The desktop sidebar's collapsed flag, kept in localStorage so it survives reloads and sign-ins. */
export function useCollapsedSidebar(): [boolean, (next: boolean) => void] {
  const [collapsed, setCollapsed] = useState(storedCollapsed);
  const set = useCallback((next: boolean) => {
    setCollapsed(next);
    try {
      localStorage.setItem(COLLAPSED_KEY, String(next));
    } catch {
      // storage blocked: the flag lasts for this page only
    }
  }, []);
  return [collapsed, set];
}
