import { create } from 'zustand';

const KEY = 'livedash.viewer.theme';

function stored(): boolean {
  try {
    return localStorage.getItem(KEY) === 'dark';
  } catch {
    return false;
  }
}

/** The viewer's light / dark choice, remembered in this browser. */
export const useViewerTheme = create<{ dark: boolean; setDark(dark: boolean): void }>((set) => ({
  dark: stored(),
  setDark: (dark) => {
    try {
      localStorage.setItem(KEY, dark ? 'dark' : 'light');
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    set({ dark });
  },
}));
