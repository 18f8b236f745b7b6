import { useEffect, type RefObject } from 'react';
import { useWidgetEnv } from '../widgets/widgetContext';

/** TV paging period from ?page=N: seconds, 3 to 3600; absent or invalid is 10; `page=0` turns paging off. */
export const TV_PAGE_DEFAULT_SECONDS = 10;
export function pageSeconds(value: string | null): number {
  if (value === null || value.trim() === '') return TV_PAGE_DEFAULT_SECONDS;
  const n = Number(value);
  if (n === 0) return 0;
  return Number.isFinite(n) && n > 0 ? Math.min(Math.max(Math.round(n), 3), 3600) : TV_PAGE_DEFAULT_SECONDS;
}

/** What a page turn keeps of the previous page: one table row, so the eye finds its place. */
const OVERLAP = 40;

/**
 * Turns one page of a scroll box every `seconds`: down by its visible height, and back to the top
 * after the last page. For a wall screen nobody scrolls (TV mode pages tables, board columns and
 * the board itself this way). The box's `data-tv-page` says which page shows (0 first).
 */
export function pageOnce(el: HTMLElement): void {
  const last = el.scrollHeight - el.clientHeight;
  if (last <= 1) return;
  const next = el.scrollTop >= last - 1 ? 0 : Math.min(last, el.scrollTop + Math.max(el.clientHeight - OVERLAP, OVERLAP));
  el.scrollTo({ top: next });
  el.dataset.tvPage = String(next === 0 ? 0 : Number(el.dataset.tvPage ?? 0) + 1);
}

/** In TV mode, pages `ref`'s scroll box by itself (see pageOnce). */
export function useTvPaging(ref: RefObject<HTMLElement | null>): void {
  const { tv, pageSeconds: seconds = 0 } = useWidgetEnv();
  useEffect(() => {
    const el = ref.current;
    if (!tv || !seconds || !el) return;
    el.dataset.tvPage = '0';
    const timer = window.setInterval(() => pageOnce(el), seconds * 1000);
    return () => window.clearInterval(timer);
  }, [ref, tv, seconds]);
}
