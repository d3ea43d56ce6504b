// What leaves the page for a model: the privacy level per cloud server (lib/privacy-settings.ts),
// the choice the page waits for at first use, and every request body sent in the current run
// (Show prompt), with the one waiting for Send when the person reviews prompts before they go.

import { create } from 'zustand';
import type { PrivacyLevel } from '../../core/privacy/disclose';
import { loadPrivacySettings, savePrivacySettings, type PrivacySettings } from '../lib/privacy-settings';

/** One request to a model server, as it went out (the body byte for byte; headers without keys). */
export interface SentPrompt {
  id: number;
  url: string;
  method: string;
  /** Header names and values; the key headers show "[redacted]". */
  headers: Array<[string, string]>;
  body: string;
  at: number;
  status: 'review' | 'sent' | 'cancelled';
}

interface PrivacyState {
  settings: PrivacySettings;
  /** A cloud server used for the first time: the run waits until the person picks a level. */
  choosing: { target: string; resolve(level: PrivacyLevel | null): void } | null;
  prompts: SentPrompt[];
  /** The database whose run sent `prompts`: another database's Ask tab does not list them. */
  promptsFor: string | null;
  /** The prompt waiting for Send (review before sending). */
  reviewing: { id: number; resolve(send: boolean): void } | null;
  setLevel(target: string, level: PrivacyLevel): void;
  setReviewPrompts(on: boolean): void;
  /** A run on `dbId` starts: its prompts replace the last run's. */
  clearPrompts(dbId: string): void;
}

export const usePrivacy = create<PrivacyState>((set, get) => ({
  settings: loadPrivacySettings(),
  choosing: null,
  prompts: [],
  promptsFor: null,
  reviewing: null,
  setLevel(target, level) {
    const settings = { ...get().settings, levels: { ...get().settings.levels, [target]: level } };
    savePrivacySettings(settings);
    set({ settings });
  },
  setReviewPrompts(on) {
    const settings = { ...get().settings, reviewPrompts: on };
    savePrivacySettings(settings);
    set({ settings });
  },
  clearPrompts: (dbId) => set({ prompts: [], promptsFor: dbId }),
}));
