import { useCallback, useState } from 'react';
import { useMediaQuery } from '../../useMediaQuery';

/** Below this width the sidebar becomes a drawer (antd's md breakpoint). */
export const DRAWER_BELOW_PX = 768;
const COLLAPSED_KEY = 'livedash.admin.sidebarCollapsed';
const PHONE_QUERY = `(max-width: ${DRAWER_BELOW_PX - 0.02}px)`;

/** True below 768 px; read synchronously so the first paint already has the right layout. */
export const useIsPhone = (): boolean => useMediaQuery(PHONE_QUERY);

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
