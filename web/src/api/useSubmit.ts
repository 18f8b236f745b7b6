import { useCallback, useMemo, useRef, useState } from 'react';
import { errorText } from './client';

/** What a toast says: a title, or a title and a text. */
export type Notice = string | readonly [title: string, text?: string];

/** Where a submit's outcome is said (the console's toasts, the viewer's messages). */
export interface Notifier {
  success(title: string, text?: string): void;
  error(title: string, text?: string): void;
}

/** A notifier for pages that say a failure in place (an alert above the form) and a success by what changes. */
export function sayInPlace(setFailure: (text: string | null) => void): Notifier {
  return { success: () => {}, error: (title, text) => setFailure(text ?? title) };
}

export interface SubmitTexts<T> {
  /** Said when the call succeeds; made from its answer when a function (undefined: nothing said). */
  success?: Notice | ((answer: T) => Notice | undefined);
  /**
   * Said when it fails: a title, with the server's message (its 4xx answers carry one a person can
   * act on) as the text; or made from the error. Without one, the failure is only kept in `error`.
   */
  failure?: string | ((error: unknown) => Notice | undefined);
  /** What the call is for (an item's id): `busyFor` names it while the call runs. */
  key?: string;
}

export interface Submit {
  /** A call is under way. */
  busy: boolean;
  /** The key of the call under way, if it gave one. */
  busyFor: string | null;
  /** The last failure's message, cleared when a call starts: for forms that show it in place. */
  error: string | null;
  /**
   * Runs the call unless one is already under way (a second click submits nothing), then says how
   * it went. Resolves to true when the call succeeded.
   */
  run<T>(call: () => Promise<T>, texts?: SubmitTexts<T>): Promise<boolean>;
}

const say = (notice: Notice | undefined, to: (title: string, text?: string) => void) => {
  if (notice === undefined) return;
  if (typeof notice === 'string') to(notice);
  else to(notice[0], notice[1]);
};

/**
 * Runs a call and says how it went: the success text, or the failure's with the server's message.
 * `useSubmit` adds the busy flag; this alone is for calls that may overlap (saves queued by an editor).
 */
export async function sendAndSay<T>(call: () => Promise<T>, texts: SubmitTexts<T>, notify?: Notifier): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    const answer = await call();
    if (notify) say(typeof texts.success === 'function' ? texts.success(answer) : texts.success, notify.success);
    return { ok: true };
  } catch (e) {
    if (notify && texts.failure !== undefined) say(typeof texts.failure === 'function' ? texts.failure(e) : [texts.failure, errorText(e)], notify.error);
    return { ok: false, error: errorText(e) };
  }
}

/**
 * The one way a form or a button sends something: busy while the call runs, no double submit, the
 * success said, the failure said with the server's own message (and kept in `error`).
 */
export function useSubmit(notify?: Notifier): Submit {
  const [busyFor, setBusyFor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  // The latest notifier, whatever its identity: callers need not memoise it.
  const notifier = useRef(notify);
  notifier.current = notify;

  const run = useCallback(async <T,>(call: () => Promise<T>, texts: SubmitTexts<T> = {}): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setBusyFor(texts.key ?? null);
    setError(null);
    try {
      const outcome = await sendAndSay(call, texts, notifier.current);
      if (!outcome.ok) setError(outcome.error);
      return outcome.ok;
    } finally {
      running.current = false;
      setBusy(false);
      setBusyFor(null);
    }
  }, []);

  return useMemo(() => ({ busy, busyFor, error, run }), [busy, busyFor, error, run]);
}
