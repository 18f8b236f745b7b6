import { useEffect, useState } from 'react';

/**
 * An editor's draft of a saved value (given as JSON): it follows the saved value while unedited;
 * once edited it is kept when the saved value changes under it (someone else's save, pushed), so
 * nothing typed is lost — the next Save, made on the version the edit started from, is refused and
 * shown (stores/dashboardSave.ts). `dirty` compares the draft with what it started from. A new
 * `resetKey` (another tab) starts again from the saved value.
 */
export function useDraft<T>(saved: string, resetKey?: unknown) {
  const fresh = () => ({ base: saved, draft: JSON.parse(saved) as T, key: resetKey });
  const [state, setState] = useState(fresh);
  useEffect(() => {
    setState((s) => {
      const mine = JSON.stringify(s.draft);
      // Unedited, saved by us (the saved value is the draft), or another tab: follow.
      if (s.key !== resetKey || mine === s.base || mine === saved) return { base: saved, draft: JSON.parse(saved) as T, key: resetKey };
      return s;
    });
  }, [saved, resetKey]);
  const setDraft = (next: T | ((draft: T) => T)) =>
    setState((s) => ({ ...s, draft: typeof next === 'function' ? (next as (draft: T) => T)(s.draft) : next }));
  return {
    draft: state.draft,
    setDraft,
    dirty: JSON.stringify(state.draft) !== state.base,
    /** Throws the draft away: the saved value as it is now. */
    discard: () => setState(fresh()),
  };
}
