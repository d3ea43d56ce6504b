// The agent's runs in the page: the current run per database (its events as they stream), the
// conversation it belongs to (issue 23: the earlier turns, oldest first; a follow-up is asked with
// them), and the model settings. Past runs live in IndexedDB (lib/run-history.ts).

import { create } from 'zustand';
import type { AgentEvent } from '../../core/agent/events';
import { redactDeep } from '../../core/security/redact';
import {
  applyModelPatch,
  knownKeys,
  loadModelSettings,
  withReloadKeys,
  saveModelSettings,
  settingsFromLink,
  type LinkProposal,
  type ModelSettings,
} from '../lib/model-settings';

export interface AskRun {
  id: string;
  dbId: string;
  dbName: string;
  question: string;
  hints: string;
  provider: string;
  model: string;
  status: 'running' | 'done' | 'failed';
  events: AgentEvent[];
  /** Text of the model's current turn while it streams. */
  streaming: string;
  startedAt: number;
  endedAt?: number;
  /** The run waits for the person: an answer to the agent's question, or Continue after the plan. */
  waitingFor?: 'answer' | 'plan';
  /** A regeneration: the plan the person confirmed, and the SQL of the run it replaces (for the diff). */
  confirmedPlan?: import('../../core/agent/plan').Plan;
  previousSql?: string;
  /** How it was answered; absent: the agent (runs saved before Auto existed). */
  mode?: 'auto' | 'direct';
  /** Opened from an exported file: shown read-only. */
  imported?: boolean;
  /** The conversation it belongs to and its place in it (0 for a first question). */
  threadId?: string;
  turn?: number;
  /** Asked before an earlier turn was answered again: it builds on an answer that is no longer the thread's. */
  stale?: boolean;
}

interface AskState {
  runs: Record<string, AskRun | undefined>;
  /** The finished turns before the current run of each database's conversation, oldest first. */
  threads: Record<string, AskRun[] | undefined>;
  /** Turns asked after an earlier one that was answered again: shown apart, to ask again on request. */
  laterTurns: Record<string, AskRun[] | undefined>;
  setThread(dbId: string, turns: AskRun[], later?: AskRun[]): void;
  model: ModelSettings;
  /** Model settings a link (`#provider=…&baseUrl=…`) asks for: applied only if the person accepts. */
  linkProposal: LinkProposal | null;
  /** Accept (true) or refuse the link's settings; either way the link is answered. */
  answerLink(accept: boolean): void;
  setRun(dbId: string, run: AskRun | undefined): void;
  patchRun(dbId: string, patch: Partial<AskRun>): void;
  pushEvent(dbId: string, event: AgentEvent): void;
  setModel(patch: Partial<ModelSettings>): void;
}

// Keys kept only in memory come back after a reload the page asked for (lib/reload-handoff.ts).
const savedModel = withReloadKeys(loadModelSettings());

export const useAsk = create<AskState>()((set, get) => {
  // Runs are stored (history) and exported: no key the person entered may be in them, whether a
  // server echoed it in an error or a model repeated it in a reply.
  const clean = <T>(value: T): T => redactDeep(value, knownKeys(get().model));
  return {
    runs: {},
    threads: {},
    laterTurns: {},
    setThread: (dbId, turns, later = []) =>
      set((s) => ({ threads: { ...s.threads, [dbId]: turns }, laterTurns: { ...s.laterTurns, [dbId]: later } })),
    model: savedModel,
    linkProposal: settingsFromLink(typeof location !== 'undefined' ? location.hash : '', savedModel),
    answerLink: (accept) =>
      set((s) => {
        if (!s.linkProposal) return {};
        const model = accept ? applyModelPatch(s.model, s.linkProposal.patch) : s.model;
        if (accept) saveModelSettings(model);
        return { model, linkProposal: null };
      }),
    setRun: (dbId, run) => set((s) => ({ runs: { ...s.runs, [dbId]: run && clean(run) } })),
    patchRun: (dbId, patch) =>
      set((s) => (s.runs[dbId] ? { runs: { ...s.runs, [dbId]: { ...s.runs[dbId]!, ...clean(patch) } } } : {})),
    pushEvent: (dbId, event) =>
      set((s) => {
        const run = s.runs[dbId];
        if (!run) return {};
        // A finished turn replaces its streamed text.
        const streaming = event.type === 'thought' || event.type === 'action' ? '' : run.streaming;
        return { runs: { ...s.runs, [dbId]: { ...run, events: [...run.events, clean(event)], streaming } } };
      }),
    setModel: (patch) =>
      set((s) => {
        const model = applyModelPatch(s.model, patch);
        saveModelSettings(model);
        return { model };
      }),
  };
});
