// Confirmed examples per database file name (IndexedDB). Failures are reported, never thrown.

import { createStore, get, set, type UseStore } from 'idb-keyval';
import { MAX_EXAMPLES, storedExamples, type ConfirmedExample } from '../../core/examples/examples';

export interface ExamplesStore {
  list(dbName: string): Promise<ConfirmedExample[]>;
  save(dbName: string, examples: ConfirmedExample[]): Promise<string | null>;
}

export function createExamplesStore(store: UseStore = createStore('dowser-examples', 'examples')): ExamplesStore {
  const key = (dbName: string) => `examples:${dbName}`;
  return {
    // Checked on every read: an older build stored whatever a file held (100,000 entries stalled
    // every click). A list over the cap is written back cut down.
    async list(dbName) {
      const raw = await get<unknown>(key(dbName), store).catch(() => undefined);
      const examples = storedExamples(raw);
      if (Array.isArray(raw) && raw.length > MAX_EXAMPLES) await set(key(dbName), examples, store).catch(() => {});
      return examples;
    },
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
