import { useEffect } from 'react';

interface WakeLockSentinelLike {
  release(): Promise<void>;
}
type WakeLockNavigator = Navigator & { wakeLock?: { request(type: 'screen'): Promise<WakeLockSentinelLike> } };

/** Keeps the screen on while the page is visible, where the browser allows it (the lock drops when hidden). */
export function useWakeLock(active: boolean) {
  useEffect(() => {
    const nav = navigator as WakeLockNavigator;
    if (!active || !nav.wakeLock) return;
    let lock: WakeLockSentinelLike | null = null;
    let disposed = false;
    const acquire = () => {
      if (document.visibilityState !== 'visible') return;
      nav.wakeLock!.request('screen').then(
        (l) => (disposed ? void l.release() : (lock = l)),
        () => {}, // Refused (no permission, battery saver): the screen may sleep.
      );
    };
    acquire();
    document.addEventListener('visibilitychange', acquire);
    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', acquire);
      void lock?.release();
    };
  }, [active]);
}

/** Tab rotation period from ?rotate=N (seconds, at least 5); 0 when absent or invalid. */
export function rotateSeconds(value: string | null): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= 5 ? Math.min(Math.round(n), 3600) : 0;
}
