/**
 * One guard against leaving a screen with unsaved work: the Configure editor sets it while it holds
 * unsaved edits, and every console navigation (sidebar, sub-tabs, Close, Escape, back button) asks it.
 *
 * The back button: this module's popstate listener is registered when the app starts, before the
 * router's own, so it runs first. While a guard is set it hides the step from the router, steps the
 * address forward again, and goes back for real only once the guard agreed.
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

let restoring = false;
let leaving = false;

function onPopState(e: PopStateEvent) {
  if (restoring) {
    restoring = false;
    e.stopImmediatePropagation();
    return;
  }
  if (leaving || !guard) {
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
}

if (typeof window !== 'undefined') window.addEventListener('popstate', onPopState);
