/**
 * One guard against leaving a screen with unsaved work: the Configure editor sets it while it holds
 * unsaved edits, and every console navigation (sidebar, sub-tabs, Close, Escape, back button) asks it.
 */
type Guard = (proceed: () => void) => void;
let guard: Guard | null = null;

/** Installs the guard; returns its removal. */
export function setLeaveGuard(next: Guard): () => void {
  guard = next;
  return () => {
    if (guard === next) guard = null;
  };
}

/** Runs `proceed` now, or once the guard agreed (it may ask the admin first). */
export function guardedLeave(proceed: () => void): void {
  if (guard) guard(proceed);
  else proceed();
}

export const hasLeaveGuard = () => guard !== null;
