import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { setLeaveGuard } from '../../leaveGuard';

/**
 * The one save model of the Configure editor (tabs, table and bucket settings, widgets and their
 * layout): an edit is a draft until its Save; while any editor holds one, every way out — another
 * tab, Close, Escape, the sidebar, the back button, a reload — asks before discarding it.
 */
interface Unsaved {
  /** What the question names ("Tab 1"). */
  name: string;
  /** Throws the draft away (the answer "Discard changes"). */
  discard(): void;
}

/** Which editors hold unsaved edits (key → what they are and how to discard them). */
export const useUnsavedEdits = create<{ editors: Record<string, Unsaved> }>(() => ({ editors: {} }));

/** An editor reports whether it holds unsaved edits, and how to discard them; unmounting clears its report. */
export function useReportUnsaved(key: string, name: string, dirty: boolean, discard: () => void = () => {}): void {
  const discardRef = useRef(discard);
  discardRef.current = discard;
  useEffect(() => {
    if (!dirty) return;
    useUnsavedEdits.setState((s) => ({ editors: { ...s.editors, [key]: { name, discard: () => discardRef.current() } } }));
    return () =>
      useUnsavedEdits.setState((s) => {
        const { [key]: _gone, ...editors } = s.editors;
        return { editors };
      });
  }, [key, name, dirty]);
}

/** Throws away every editor's unsaved edits. */
export function discardUnsaved(): void {
  const editors = Object.values(useUnsavedEdits.getState().editors);
  useUnsavedEdits.setState({ editors: {} });
  for (const e of editors) e.discard();
}

/**
 * While an editor holds unsaved edits: every console navigation asks "Discard unsaved changes?"
 * (leaveGuard.ts), and a reload or closing the browser tab gets the browser's own "Leave site?".
 * Returns the names of what is unsaved.
 */
export function useUnsavedGuard(): string[] {
  const { modal } = App.useApp();
  const editors = useUnsavedEdits((s) => s.editors);
  const names = [...new Set(Object.values(editors).map((e) => e.name))];
  const key = names.join('\u0000');
  useEffect(() => {
    if (!key) return;
    const list = key.split('\u0000').map((n) => `"${n}"`).join(', ');
    const removeGuard = setLeaveGuard((proceed) =>
      modal.confirm({
        title: 'Discard unsaved changes?',
        content: `Your changes to ${list} have not been saved. Leave and discard them?`,
        okText: 'Discard changes',
        okButtonProps: { danger: true },
        cancelText: 'Keep editing',
        onOk: () => {
          discardUnsaved();
          proceed();
        },
      }),
    );
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      removeGuard();
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [key, modal]);
  return names;
}
