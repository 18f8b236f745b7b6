import { create } from 'zustand';

/** A host:port a refusal offered to allow ("allow 127.0.0.1:5199 under Settings › Outbound hosts"): the Settings screen opens with it typed in. */
export const useOutboundHostDraft = create<{ host: string | null; offer(host: string | null): void }>((set) => ({
  host: null,
  offer: (host) => set({ host }),
}));
