// The page's kept indexes (issue 26): snapshots in IndexedDB (idb-keyval), written and read by
// the database worker; the newest few kept. IndexedDB clones the typed arrays as they are.
// Every failure (quota, private mode) is a miss: it is a cache, the indexes are built again.

import { clear, createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import type { ToolboxSnapshot, ToolboxStore } from '../../core/tools/toolbox-snapshot';

const DB_NAME = 'dowser-indexes';
const STORE_NAME = 'snapshots';
const LIST_KEY = '__recent__';

export interface IdbToolboxStoreOptions {
  dbName?: string;
  /** Snapshots kept; the least recently used go first. */
  maxEntries?: number;
  onError?(e: unknown): void;
}

const storeOf = (dbName = DB_NAME): UseStore => createStore(dbName, STORE_NAME);

export function idbToolboxStore(options: IdbToolboxStoreOptions = {}): ToolboxStore {
  const store = storeOf(options.dbName);
  const maxEntries = options.maxEntries ?? 3;
  /** Moves `key` to the end of the list (the most recently used); returns what falls out. */
  const touch = async (key: string): Promise<string[]> => {
    let evicted: string[] = [];
    await update<string[]>(
      LIST_KEY,
      (keys = []) => {
        const next = [...keys.filter((k) => k !== key), key];
        evicted = next.slice(0, Math.max(0, next.length - maxEntries));
        return next.slice(evicted.length);
      },
      store,
    );
    return evicted;
  };

  return {
    async get(key) {
      try {
        const hit = await get<ToolboxSnapshot>(key, store);
        if (!hit) return null;
        await touch(key);
        return hit;
      } catch (e) {
        options.onError?.(e);
        return null;
      }
    },
    async put(snapshot) {
      try {
        await set(snapshot.key, snapshot, store);
        for (const k of await touch(snapshot.key)) await del(k, store);
      } catch (e) {
        options.onError?.(e);
      }
    },
  };
}

/** Removes every kept index of this browser (the settings' "Forget kept indexes"). */
export function forgetKeptIndexes(dbName = DB_NAME): Promise<void> {
  return clear(storeOf(dbName));
}
