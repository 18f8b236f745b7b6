import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches, read synchronously (the first paint already has it) and
 * followed as it changes (a window resized, a system setting switched).
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const mq = window.matchMedia(query);
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
