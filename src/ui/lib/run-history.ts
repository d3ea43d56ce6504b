// Past agent runs per database file name (IndexedDB): the question, every event, the answer.
// Storage failures are reported, never fatal. No API key is ever part of a run.

import { createStore, get, set, type UseStore } from 'idb-keyval';
import type { AskRun } from '../store/ask-store';

const MAX_RUNS = 30;

export interface RunHistory {
  list(dbName: string): Promise<AskRun[]>;
  save(run: AskRun): Promise<string | null>;
}

export function createRunHistory(store: UseStore = createStore('dowser-runs', 'runs')): RunHistory {
  const key = (dbName: string) => `runs:${dbName}`;
  const list = async (dbName: string) => (await get<AskRun[]>(key(dbName), store).catch(() => undefined)) ?? [];
  return {
    list,
    async save(run) {
      try {
        const runs = (await list(run.dbName)).filter((r) => r.id !== run.id);
        runs.unshift({ ...run, streaming: '' });
        await set(key(run.dbName), runs.slice(0, MAX_RUNS), store);
        return null;
      } catch (e) {
        return `This run could not be kept in the history (${e instanceof Error ? e.message : String(e)}).`;
      }
    },
  };
}
