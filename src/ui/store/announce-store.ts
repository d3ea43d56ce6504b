// What the page says to a screen reader about work that finished out of sight of the focus (issue
// 25): SQL tasks, a plan step's check, an evaluation. Each message is added, not written over, so a
// reader hears it even when another follows a moment later; the last few are kept.

import { create } from 'zustand';

export interface Announcement {
  id: number;
  text: string;
}

const KEEP = 3;
let next = 0;

/** The list with one message added at its end (never written over), the oldest past `keep` dropped. */
export function appended(messages: readonly Announcement[], text: string, keep: number): Announcement[] {
  return [...messages, { id: ++next, text }].slice(-keep);
}

interface AnnounceState {
  messages: Announcement[];
  announce(text: string): void;
}

export const useAnnounce = create<AnnounceState>()((set) => ({
  messages: [],
  announce: (text) => set((s) => ({ messages: appended(s.messages, text, KEEP) })),
}));

/** For actions: one sentence, said once, politely. */
export const announce = (text: string) => useAnnounce.getState().announce(text);
