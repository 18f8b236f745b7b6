import { useEffect, useState } from 'react';

interface WakeLockSentinelLike {
  release(): Promise<void>;
  addEventListener(type: 'release', listener: () => void): void;
}
type WakeLockNavigator = Navigator & { wakeLock?: { request(type: 'screen'): Promise<WakeLockSentinelLike> } };

/** Whether the screen is kept on: held, refused (no permission, battery saver), released (page hidden) or unsupported. */
export type WakeLockState = 'pending' | 'held' | 'refused' | 'released' | 'unsupported';

/**
 * Keeps the screen on while the page is visible, where the browser allows it: the browser drops the
 * lock when the page is hidden, and it is taken again when the page shows.
 */
export function useWakeLock(active: boolean): WakeLockState {
  const [state, setState] = useState<WakeLockState>('pending');
  useEffect(() => {
    const nav = navigator as WakeLockNavigator;
    if (!active) return;
    if (!nav.wakeLock) {
      setState('unsupported');
      return;
    }
    let lock: WakeLockSentinelLike | null = null;
    let disposed = false;
    const acquire = () => {
      if (document.visibilityState !== 'visible' || lock) return;
      nav.wakeLock!.request('screen').then(
        (l) => {
          if (disposed) return void l.release();
          lock = l;
          setState('held');
          l.addEventListener('release', () => {
            lock = null;
            if (!disposed) setState('released');
          });
        },
        () => !disposed && setState('refused'),
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
  return state;
}

/** Tab rotation period from ?rotate=N (seconds, at least 5); 0 when absent or invalid. */
export function rotateSeconds(value: string | null): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= 5 ? Math.min(Math.round(n), 3600) : 0;
}
