import { create } from 'zustand';

const KEY = 'livedash.adminToken';

interface AdminTokenState {
  token: string | null;
  /** Why the console returned to sign-in (e.g. a 401), shown on the sign-in form. */
  signedOutReason: string | null;
  signIn(token: string): void;
  signOut(reason?: string): void;
}

const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;

/** The admin token, kept client-side only (never in the bundle). */
export const useAdminToken = create<AdminTokenState>((set) => ({
  token: stored,
  signedOutReason: null,
  signIn: (token) => {
    localStorage.setItem(KEY, token);
    set({ token, signedOutReason: null });
  },
  signOut: (reason) => {
    localStorage.removeItem(KEY);
    set({ token: null, signedOutReason: reason ?? null });
  },
}));
