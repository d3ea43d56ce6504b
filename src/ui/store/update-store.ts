// A build of the app newer than this page's, found by the service worker (lib/offline.ts): the
// page offers a reload (components/UpdateNotice.tsx) rather than being taken over (decision 067).

import { create } from 'zustand';
import type { NewVersion } from '../lib/offline';

interface UpdateState {
  newVersion: NewVersion | null;
  dismissed: boolean;
  found(version: NewVersion): void;
  dismiss(): void;
}

export const useUpdate = create<UpdateState>()((set) => ({
  newVersion: null,
  dismissed: false,
  // Dismissed while it waited, shown again once another tab activated it: this page is the old
  // build from then on, and what it has not loaded yet may be gone.
  found: (version) => set((s) => (s.newVersion === version ? s : { newVersion: version, dismissed: false })),
  dismiss: () => set({ dismissed: true }),
}));
