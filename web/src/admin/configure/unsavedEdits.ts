import { useEffect } from 'react';
import { create } from 'zustand';

/** Which editors of the Configure screen hold unsaved edits (key → the tab's name). */
export const useUnsavedEdits = create<{ editors: Record<string, string> }>(() => ({ editors: {} }));

/** An editor reports whether it holds unsaved edits; unmounting clears its report. */
export function useReportUnsaved(key: string, tabName: string, dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    useUnsavedEdits.setState((s) => ({ editors: { ...s.editors, [key]: tabName } }));
    return () =>
      useUnsavedEdits.setState((s) => {
        const { [key]: _gone, ...editors } = s.editors;
        return { editors };
      });
  }, [key, tabName, dirty]);
}
