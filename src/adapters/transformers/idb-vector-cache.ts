// VectorCache in IndexedDB (idb-keyval), for the browser and its workers. One entry per
// (model, schema text) key holds all vectors in one Float32Array: one structured-clone copy
// instead of thousands of small ones. Oldest entries are evicted past `maxEntries`
// (a 2,000-column schema at 384 dimensions is about 3 MB).

import { createStore, del, get, set, update, type UseStore } from 'idb-keyval';
import type { VectorCache } from '../../core/retrieval/embedder';

interface StoredVectors {
  dims: number;
  count: number;
  data: Float32Array;
}

const INDEX_KEY = '__index__';

export interface IdbVectorCacheOptions {
  dbName?: string;
  maxEntries?: number;
  /** A failed write (quota, private mode) is not fatal: vectors can be remade. Told here. */
  onError?(e: unknown): void;
}

export class IdbVectorCache implements VectorCache {
  private readonly store: UseStore;
  private readonly maxEntries: number;

  constructor(private readonly options: IdbVectorCacheOptions = {}) {
    this.store = createStore(options.dbName ?? 'dowser-vectors', 'vectors');
    this.maxEntries = options.maxEntries ?? 12;
  }

  async get(key: string): Promise<Float32Array[] | null> {
    const hit = await get<StoredVectors>(key, this.store);
    if (!hit || !(hit.data instanceof Float32Array) || hit.data.length !== hit.dims * hit.count) return null;
    return Array.from({ length: hit.count }, (_, i) => hit.data.slice(i * hit.dims, (i + 1) * hit.dims));
  }

  async set(key: string, vectors: Float32Array[]): Promise<void> {
    const dims = vectors[0]?.length ?? 0;
    const data = new Float32Array(dims * vectors.length);
    vectors.forEach((v, i) => data.set(v, i * dims));
    try {
      await set(key, { dims, count: vectors.length, data } satisfies StoredVectors, this.store);
      let evicted: string[] = [];
      await update<string[]>(
        INDEX_KEY,
        (keys = []) => {
          const next = [...keys.filter((k) => k !== key), key];
          evicted = next.slice(0, Math.max(0, next.length - this.maxEntries));
          return next.slice(evicted.length);
        },
        this.store,
      );
      for (const k of evicted) await del(k, this.store);
    } catch (e) {
      this.options.onError?.(e);
    }
  }
}
