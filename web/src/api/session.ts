import { create } from 'zustand';
import { roleIncludes, type MeDto, type Role } from '@common/schemas/auth';
import { whenSessionEnds } from './client';

interface SessionState {
  /** Who is signed in (from GET /api/auth/me), or null. */
  me: MeDto | null;
  /** Whether the console asked the server yet. */
  checked: boolean;
  /** Bumped at every sign-in: the admin socket reconnects with the new session cookie. */
  generation: number;
  /** Why the console returned to sign-in (e.g. an ended session), shown on the sign-in form. */
  signedOutReason: string | null;
  signedIn(me: MeDto): void;
  signOut(reason?: string): void;
  /** Asks the server who the session cookie is. */
  refresh(): Promise<void>;
}

/**
 * The console's session: the server's HttpOnly cookie proves it, so nothing is kept in browser
 * storage; this store only remembers who the server said we are.
 */
export const useSession = create<SessionState>((set) => ({
  me: null,
  checked: false,
  generation: 0,
  signedOutReason: null,
  signedIn: (me) => set((s) => ({ me, checked: true, generation: s.generation + 1, signedOutReason: null })),
  signOut: (reason) => set({ me: null, checked: true, signedOutReason: reason ?? null }),
  refresh: async () => {
    const res = await fetch('/api/auth/me', { credentials: 'include' }).catch(() => null);
    if (res?.ok) {
      const me = (await res.json()) as MeDto;
      set((s) => ({ me, checked: true, generation: s.me ? s.generation : s.generation + 1 }));
    } else set({ me: null, checked: true });
  },
}));

// A console call told "sign in again" returns to sign-in with the server's reason.
whenSessionEnds((reason) => useSession.getState().signOut(reason));

/** Whether the signed-in role includes `needed` (admin ⊃ editor ⊃ viewer). */
export function useCan(needed: Role): boolean {
  return useSession((s) => Boolean(s.me && roleIncludes(s.me.role, needed)));
}
