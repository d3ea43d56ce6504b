// What a reload must not lose (issue 25): a new model server is reachable only after a reload
// (the page's connect policy is fixed when it loads, decision 040), and a reload used to drop the
// open files and a key kept "only while this page is open". Before such a reload the open files
// go to IndexedDB and those keys to sessionStorage (this tab only); the next load takes both
// back and deletes them at once. A handoff older than a few minutes is dropped unread.

import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { ImportType } from '../../core/import/table-file';
import type { EncodingChoice, HeaderChoice } from '../../core/import/imported-file';

export interface HandoffFile {
  name: string;
  /** A File or Blob is stored as a handle by IndexedDB: no copy on the main thread. */
  source: Blob | Uint8Array;
  /** The database's -journal and -wal files, when they were opened with it. */
  journal?: Blob | Uint8Array;
  wal?: Blob | Uint8Array;
  /** An imported database (issue 26): the CSV, TSV or JSON files it was made from. */
  tables?: Array<{
    name: string;
    source: Blob | Uint8Array;
    types?: Array<ImportType | null>;
    header?: HeaderChoice;
    encoding?: EncodingChoice;
  }>;
}

interface Stored {
  savedAt: number;
  files: HandoffFile[];
  /** The file the person was looking at. */
  active: string | null;
}

const KEY = 'reload';
/** A reload takes seconds; anything older was left by a reload that never happened. */
const FRESH_MS = 5 * 60_000;

export interface ReloadHandoff {
  keep(files: HandoffFile[], active: string | null): Promise<void>;
  /** The files kept for this load (then forgotten), or null. */
  take(): Promise<{ files: HandoffFile[]; active: string | null } | null>;
}

export function createReloadHandoff(store: UseStore = createStore('dowser-reload', 'handoff')): ReloadHandoff {
  return {
    async keep(files, active) {
      await set(KEY, { savedAt: Date.now(), files, active } satisfies Stored, store);
    },
    async take() {
      const stored = await get<Stored>(KEY, store).catch(() => undefined);
      if (!stored) return null;
      await del(KEY, store).catch(() => undefined);
      if (!(Date.now() - stored.savedAt < FRESH_MS) || !Array.isArray(stored.files)) return null;
      return { files: stored.files, active: stored.active ?? null };
    },
  };
}
