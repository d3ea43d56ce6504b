import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { embedCached, vectorCacheKey, type Embedder } from '../../core/retrieval/embedder';
import { IdbVectorCache } from './idb-vector-cache';

const f = (...xs: number[]) => new Float32Array(xs);
let n = 0;
const freshDb = () => `dowser-vectors-test-${n++}`;

describe('IdbVectorCache', () => {
  it('round-trips vectors and misses with null', async () => {
    const dbName = freshDb();
    const cache = new IdbVectorCache({ dbName });
    const key = vectorCacheKey('m', ['a', 'b']);
    expect(await cache.get(key)).toBeNull();
    await cache.set(key, [f(1, 2, 3), f(4, 5, 6)]);
    const hit = await cache.get(key);
    expect(hit?.map((v) => Array.from(v))).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(hit?.[0]).toBeInstanceOf(Float32Array);
    // A second instance (a new page load) sees the same entry.
    expect(await new IdbVectorCache({ dbName }).get(key)).not.toBeNull();
  });

  it('keeps only the newest maxEntries entries', async () => {
    const cache = new IdbVectorCache({ dbName: freshDb(), maxEntries: 2 });
    await cache.set('k1', [f(1)]);
    await cache.set('k2', [f(2)]);
    await cache.set('k1', [f(11)]); // rewritten: now newer than k2
    await cache.set('k3', [f(3)]);
    expect(await cache.get('k2')).toBeNull();
    expect(Array.from((await cache.get('k1'))![0])).toEqual([11]);
    expect(Array.from((await cache.get('k3'))![0])).toEqual([3]);
  });

  it('stores an empty list', async () => {
    const cache = new IdbVectorCache({ dbName: freshDb() });
    await cache.set('empty', []);
    expect(await cache.get('empty')).toEqual([]);
  });

  it('serves embedCached on a second run without embedding again', async () => {
    let calls = 0;
    const embedder: Embedder = {
      modelId: 'm',
      dimensions: 2,
      embed: async (texts) => {
        calls++;
        return texts.map(() => f(0.6, 0.8));
      },
    };
    const dbName = freshDb();
    await embedCached(embedder, new IdbVectorCache({ dbName }), ['x', 'y']);
    const again = await embedCached(embedder, new IdbVectorCache({ dbName }), ['x', 'y']);
    expect(calls).toBe(1);
    expect(again).toHaveLength(2);
  });
});
