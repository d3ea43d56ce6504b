// Recently opened files: names always (so the list survives a reload), bytes only when the
// user agreed. Storage can fail (quota, private mode): that is reported, never fatal.

import { createStore, del, get, set, type UseStore } from 'idb-keyval';

export interface RecentFile {
  name: string;
  sizeBytes: number;
  openedAt: string;
  /** The bytes are stored on this device and can be reopened without picking the file. */
  stored: boolean;
}

const LIST_KEY = 'recent';
const MAX_RECENT = 12;

export interface RecentFiles {
  list(): Promise<RecentFile[]>;
  /** Returns a message when the bytes could not be stored (quota); the name is kept anyway. */
  /** A Blob (a File) is stored as is: IndexedDB keeps it without a copy on the main thread. */
  remember(name: string, file: Blob | Uint8Array, storeBytes: boolean): Promise<string | null>;
  load(name: string): Promise<Blob | Uint8Array | null>;
  forget(name: string): Promise<void>;
}

function isQuotaError(e: unknown): boolean {
  return e instanceof DOMException && (e.name === 'QuotaExceededError' || e.code === 22);
}

export function createRecentFiles(store: UseStore = createStore('dowser', 'files')): RecentFiles {
  const readList = async () => (await get<RecentFile[]>(LIST_KEY, store).catch(() => undefined)) ?? [];
  const writeList = (list: RecentFile[]) => set(LIST_KEY, list.slice(0, MAX_RECENT), store).catch(() => undefined);

  return {
    list: readList,
    async remember(name, file, storeBytes) {
      let stored = false;
      let problem: string | null = null;
      if (storeBytes) {
        try {
          await set(`file:${name}`, file, store);
          stored = true;
        } catch (e) {
          problem = isQuotaError(e)
            ? `Not enough browser storage to keep "${name}" on this device; it stays open for this session only.`
            : `Could not store "${name}" on this device (${e instanceof Error ? e.message : String(e)}).`;
        }
      } else {
        await del(`file:${name}`, store).catch(() => undefined);
      }
      const list = (await readList()).filter((f) => f.name !== name);
      list.unshift({
        name,
        sizeBytes: file instanceof Uint8Array ? file.length : file.size,
        openedAt: new Date().toISOString(),
        stored,
      });
      await writeList(list);
      return problem;
    },
    async load(name) {
      return (await get<Blob | Uint8Array>(`file:${name}`, store).catch(() => undefined)) ?? null;
    },
    async forget(name) {
      await del(`file:${name}`, store).catch(() => undefined);
      await writeList((await readList()).filter((f) => f.name !== name));
    },
  };
}
