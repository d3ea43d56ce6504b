// The page's kept indexes (issue 26): snapshots in IndexedDB (idb-keyval), written and read by
// the database worker; the newest few kept. IndexedDB clones the typed arrays as they are.
// Every failure (quota, private mode) is a miss: it is a cache, the indexes are built again.
//
// Issue 35: IndexedDB is per origin (no other site, and no other local user's browser profile,
// reads it). A snapshot and the list of recent keys are written in one transaction, and a
// transaction is atomic: a tab closed mid-write leaves the store as it was, never half a
// snapshot or a snapshot no list names (which nothing would ever evict). What is read back is
// checked by the engine (snapshot-shape.ts, ValueIndex.fromData); a recent list that is not a
// list of keys is read as empty rather than failing every later write.

import { clear, createStore, get, promisifyRequest, update, type UseStore } from 'idb-keyval';
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

/** The recent keys as stored, or none when the record is not a list of keys. */
const recentOf = (v: unknown): string[] =>
  Array.isArray(v) && v.every((k) => typeof k === 'string') ? (v as string[]) : [];

export function idbToolboxStore(options: IdbToolboxStoreOptions = {}): ToolboxStore {
  const store = storeOf(options.dbName);
  const maxEntries = options.maxEntries ?? 3;
  /** `key` moved to the end of the list (the most recently used), and what falls out. */
  const listed = (keys: string[], key: string) => {
    const next = [...keys.filter((k) => k !== key), key];
    const evicted = next.slice(0, Math.max(0, next.length - maxEntries));
    return { next: next.slice(evicted.length), evicted };
  };

  return {
    async get(key) {
      try {
        const hit = await get<unknown>(key, store);
        if (!hit) return null;
        await update<unknown>(LIST_KEY, (keys) => listed(recentOf(keys), key).next, store);
        return hit as ToolboxSnapshot;
      } catch (e) {
        options.onError?.(e);
        return null;
      }
    },
    async put(snapshot, onProgress) {
      try {
        onProgress?.(0);
        // One transaction: the snapshot, the list and what the list lets go of, or nothing.
        await store('readwrite', (s) =>
          promisifyRequest(s.get(LIST_KEY)).then((keys) => {
            const { next, evicted } = listed(recentOf(keys), snapshot.key);
            s.put(snapshot, snapshot.key);
            s.put(next, LIST_KEY);
            for (const k of evicted) s.delete(k);
            return promisifyRequest(s.transaction);
          }),
        );
        onProgress?.(1);
        return true;
      } catch (e) {
        options.onError?.(e);
        return false;
      }
    },
    async remove(key) {
      try {
        await store('readwrite', (s) =>
          promisifyRequest(s.get(LIST_KEY)).then((keys) => {
            s.delete(key);
            s.put(
              recentOf(keys).filter((k) => k !== key),
              LIST_KEY,
            );
            return promisifyRequest(s.transaction);
          }),
        );
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
