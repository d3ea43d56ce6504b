// Confirmed examples per database file name (IndexedDB). Failures are reported, never thrown.

import { createStore, get, set, type UseStore } from 'idb-keyval';
import type { ConfirmedExample } from '../../core/examples/examples';

export interface ExamplesStore {
  list(dbName: string): Promise<ConfirmedExample[]>;
  save(dbName: string, examples: ConfirmedExample[]): Promise<string | null>;
}

export function createExamplesStore(store: UseStore = createStore('dowser-examples', 'examples')): ExamplesStore {
  const key = (dbName: string) => `examples:${dbName}`;
  return {
    list: async (dbName) => (await get<ConfirmedExample[]>(key(dbName), store).catch(() => undefined)) ?? [],
    async save(dbName, examples) {
      try {
        await set(key(dbName), examples, store);
        return null;
      } catch (e) {
        return `The examples could not be stored on this device (${e instanceof Error ? e.message : String(e)}).`;
      }
    },
  };
}
