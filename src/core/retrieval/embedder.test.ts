import { describe, expect, it } from 'vitest';
import {
  cosine,
  embedCached,
  EmbedderUnavailableError,
  isEmbedderUnavailable,
  MemoryVectorCache,
  normalize,
  sha256Hex,
  topKByCosine,
  vectorCacheKey,
  type Embedder,
  type VectorCache,
} from './embedder';

const f = (...xs: number[]) => new Float32Array(xs);

describe('vector maths', () => {
  it('cosine of parallel, orthogonal, opposite and zero vectors', () => {
    expect(cosine(f(1, 2), f(2, 4))).toBeCloseTo(1);
    expect(cosine(f(1, 0), f(0, 3))).toBeCloseTo(0);
    expect(cosine(f(1, 1), f(-1, -1))).toBeCloseTo(-1);
    expect(cosine(f(0, 0), f(1, 1))).toBe(0);
    expect(() => cosine(f(1), f(1, 2))).toThrow(/lengths differ/);
  });

  it('normalize returns a unit-length copy and keeps zero as zero', () => {
    const v = f(3, 4);
    const n = normalize(v);
    expect(Array.from(n)).toEqual([expect.closeTo(0.6), expect.closeTo(0.8)]);
    expect(Array.from(v)).toEqual([3, 4]);
    expect(Array.from(normalize(f(0, 0)))).toEqual([0, 0]);
  });

  it('topKByCosine ranks best first, ties by index, and caps k', () => {
    const vs = [f(0, 1), f(1, 0), f(1, 1), f(1, 0)];
    const top = topKByCosine(f(1, 0), vs, 3);
    expect(top.map((t) => t.index)).toEqual([1, 3, 2]);
    expect(top[0].score).toBeCloseTo(1);
    expect(topKByCosine(f(1, 0), vs, 0)).toEqual([]);
    expect(topKByCosine(f(1, 0), vs, 10)).toHaveLength(4);
  });
});

describe('cache key', () => {
  it('sha256 matches the standard test vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('é'.repeat(100))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is stable, and changes with the model, any text, the order or the split of texts', () => {
    const texts = ['customer.name: the name', 'orders.total'];
    const key = vectorCacheKey('m', texts);
    expect(vectorCacheKey('m', [...texts])).toBe(key);
    expect(key).toMatch(/^v1:m:2:[0-9a-f]{64}$/);
    expect(vectorCacheKey('m2', texts)).not.toBe(key);
    expect(vectorCacheKey('m', [texts[1], texts[0]])).not.toBe(key);
    expect(vectorCacheKey('m', ['customer.name: the name ', 'orders.total'])).not.toBe(key);
    expect(vectorCacheKey('m', ['a b'])).not.toBe(vectorCacheKey('m', ['a', 'b']));
  });
});

describe('MemoryVectorCache', () => {
  it('stores copies, misses with null and evicts the least recently used', async () => {
    const cache = new MemoryVectorCache(2);
    const v = [f(1, 2)];
    await cache.set('a', v);
    v[0][0] = 99;
    expect(Array.from((await cache.get('a'))![0])).toEqual([1, 2]);
    expect(await cache.get('missing')).toBeNull();
    await cache.set('b', [f(3)]);
    await cache.get('a'); // a is now more recent than b
    await cache.set('c', [f(4)]);
    expect(cache.size).toBe(2);
    expect(await cache.get('b')).toBeNull();
    expect(await cache.get('a')).not.toBeNull();
  });
});

describe('embedCached', () => {
  const fake = (): Embedder & { calls: number } => ({
    modelId: 'fake',
    dimensions: 2,
    calls: 0,
    async embed(texts, opts) {
      this.calls++;
      opts?.onProgress?.(texts.length, texts.length);
      return texts.map((t) => normalize(f(t.length, 1)));
    },
  });

  it('embeds once, then answers from the cache with full progress', async () => {
    const e = fake();
    const cache = new MemoryVectorCache();
    const first = await embedCached(e, cache, ['a', 'bbb']);
    const progress: number[][] = [];
    const second = await embedCached(e, cache, ['a', 'bbb'], { onProgress: (d, t) => progress.push([d, t]) });
    expect(e.calls).toBe(1);
    expect(second.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    expect(progress).toEqual([[2, 2]]);
  });

  it('ignores a broken cache and wrong-shaped hits', async () => {
    const e = fake();
    const broken: VectorCache = {
      get: () => Promise.reject(new Error('idb gone')),
      set: () => Promise.reject(new Error('quota')),
    };
    expect(await embedCached(e, broken, ['x'])).toHaveLength(1);
    const wrong: VectorCache = { get: async () => [f(1, 2, 3)], set: async () => undefined };
    expect((await embedCached(e, wrong, ['x']))[0]).toHaveLength(2);
    expect(e.calls).toBe(2);
  });
});

describe('EmbedderUnavailableError', () => {
  it('is recognised by name and reason, also as a plain copy after crossing a worker', () => {
    const e = new EmbedderUnavailableError('network', 'offline');
    expect(isEmbedderUnavailable(e)).toBe(true);
    const copy = Object.assign(new Error('offline'), { name: 'EmbedderUnavailableError', reason: 'network' });
    expect(isEmbedderUnavailable(copy)).toBe(true);
    expect(isEmbedderUnavailable(new Error('x'))).toBe(false);
  });
});
