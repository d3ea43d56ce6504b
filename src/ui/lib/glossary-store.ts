// Each database's glossary (imported descriptions and the user's notes), kept on this device by
// database *name*, so the same file opened again later finds its notes. Storage can fail (quota,
// private mode, no IndexedDB at all): that comes back as a message, never as an exception.

import { createStore, get, set, type UseStore } from 'idb-keyval';
import { emptyGlossary, normalizeGlossary, type Glossary } from '../../core/descriptions/glossary';

export interface GlossaryStore {
  /** The stored glossary (empty when there is none), and a message when it could not be read. */
  load(dbName: string): Promise<{ glossary: Glossary; problem: string | null }>;
  /** Returns a message when the glossary could not be stored; null when it was. */
  save(dbName: string, glossary: Glossary): Promise<string | null>;
}

const reason = (e: unknown) => {
  if (e instanceof DOMException && (e.name === 'QuotaExceededError' || e.code === 22))
    return 'not enough browser storage';
  return e instanceof Error ? e.message : String(e);
};

export function createGlossaryStore(store?: UseStore): GlossaryStore {
  // Opened on first use: where IndexedDB is missing, creating the store throws.
  const db = () => (store ??= createStore('dowser-glossary', 'glossaries'));
  const key = (dbName: string) => `glossary:${dbName}`;
  return {
    async load(dbName) {
      try {
        return { glossary: normalizeGlossary(await get(key(dbName), db())), problem: null };
      } catch (e) {
        return {
          glossary: emptyGlossary(),
          problem: `The notes and descriptions saved for "${dbName}" could not be read (${reason(e)}).`,
        };
      }
    },
    async save(dbName, glossary) {
      try {
        await set(key(dbName), glossary, db());
        return null;
      } catch (e) {
        return `The notes and descriptions for "${dbName}" could not be saved on this device (${reason(e)}); they last for this session only.`;
      }
    },
  };
}
