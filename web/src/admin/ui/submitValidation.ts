import type { FormProps } from 'antd';
import { useState } from 'react';

/**
 * Form props for gentle validation: on submit first, then again on every change. antd alone
 * validates on change from the first keystroke ("… is required" before the button was pressed).
 * Call it in the component that renders the form's fields, so that switching to on-change
 * validation re-renders them (antd memoizes each field's input). `resetKey` (the dialog's open
 * state, the wizard step…) starts over when it changes.
 */
export function useSubmitValidation(resetKey: unknown): Pick<FormProps, 'validateTrigger' | 'onFinishFailed'> {
  const [state, setState] = useState<{ key: unknown; failed: boolean }>({ key: resetKey, failed: false });
  // A new key (dialog closed or opened, next step) starts over: React's "adjust state while rendering".
  if (!Object.is(state.key, resetKey)) setState({ key: resetKey, failed: false });
  const submitted = state.failed && Object.is(state.key, resetKey);
  return { validateTrigger: submitted ? 'onChange' : [], onFinishFailed: () => setState({ key: resetKey, failed: true }) };
}
