// The embedding port SearchColumn uses, vector maths, and the vector cache contract.
// Pure: the transformers.js implementation lives in src/adapters/transformers; a tool that gets
// no Embedder (no model could load) runs lexical-only.

export interface EmbedProgressOptions {
  /** Called after each batch with texts embedded so far; reaches (total, total) on success. */
  onProgress?(done: number, total: number): void;
  /** Checked between batches; an aborted signal rejects with `signal.reason`. */
  signal?: AbortSignal;
}

export interface Embedder {
  readonly modelId: string;
  readonly dimensions: number;
  /** One unit-length vector per text, in order. */
  embed(texts: string[], opts?: EmbedProgressOptions): Promise<Float32Array[]>;
}

/** Why no embedder could be made; the caller shows a plain sentence and runs lexical-only. */
export type EmbedderUnavailableReason =
  /** model files are not where they were looked for (and remote download is off or 404) */
  | 'not_found'
  /** a download was needed and the network failed (offline, DNS, blocked) */
  | 'network'
  /** the files are there but do not load or run as a feature-extraction model */
  | 'invalid_model'
  /** the ONNX runtime itself could not start (e.g. its WASM files are not served) */
  | 'runtime';

/**
 * Thrown by embedder factories. Plain Error plus `reason` so it can be told apart after
 * crossing a worker boundary too (check with `isEmbedderUnavailable`, not `instanceof`).
 */
export class EmbedderUnavailableError extends Error {
  readonly reason: EmbedderUnavailableReason;
  constructor(reason: EmbedderUnavailableReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbedderUnavailableError';
    this.reason = reason;
  }
}

export function isEmbedderUnavailable(e: unknown): e is Error & { reason: EmbedderUnavailableReason } {
  return (
    e instanceof Error &&
    e.name === 'EmbedderUnavailableError' &&
    typeof (e as { reason?: unknown }).reason === 'string'
  );
}

// ---- vector maths ----------------------------------------------------------------------------

export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`Vector lengths differ: ${a.length} vs ${b.length}`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Cosine similarity; 0 when either vector is all zeros (an empty text pools to zero). */
export function cosine(a: Float32Array, b: Float32Array): number {
  const d = dot(a, b);
  const na = Math.sqrt(dot(a, a));
  const nb = Math.sqrt(dot(b, b));
  return na === 0 || nb === 0 ? 0 : d / (na * nb);
}

/** A unit-length copy (the zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v));
  const out = new Float32Array(v.length);
  if (n === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

/** The k best matches by cosine, best first; ties keep the lower index first (stable output). */
export function topKByCosine(
  query: Float32Array,
  vectors: Float32Array[],
  k: number,
): Array<{ index: number; score: number }> {
  const scored = vectors.map((v, index) => ({ index, score: cosine(query, v) }));
  scored.sort((x, y) => y.score - x.score || x.index - y.index);
  return scored.slice(0, Math.max(0, k));
}

// ---- cache -----------------------------------------------------------------------------------

export interface VectorCache {
  get(key: string): Promise<Float32Array[] | null>;
  set(key: string, vectors: Float32Array[]): Promise<void>;
}

/**
 * Cache key for the vectors of `texts` under `modelId`. The texts already carry the schema and
 * the descriptions, so this is the "model id + schema hash + descriptions" key. SHA-256 of an
 * unambiguous encoding (JSON of [id, texts]): a collision would silently return wrong vectors.
 */
export function vectorCacheKey(modelId: string, texts: string[]): string {
  return `v1:${modelId}:${texts.length}:${sha256Hex(JSON.stringify([modelId, texts]))}`;
}

/** In-memory VectorCache (CLI, tests); keeps the most recent `maxEntries` entries. */
export class MemoryVectorCache implements VectorCache {
  private readonly entries = new Map<string, Float32Array[]>();
  constructor(private readonly maxEntries = 16) {}

  async get(key: string): Promise<Float32Array[] | null> {
    const hit = this.entries.get(key);
    if (!hit) return null;
    this.entries.delete(key);
    this.entries.set(key, hit); // refresh recency
    return hit.map((v) => v.slice()); // copies: callers may not mutate the cache
  }

  async set(key: string, vectors: Float32Array[]): Promise<void> {
    this.entries.delete(key);
    this.entries.set(
      key,
      vectors.map((v) => v.slice()),
    );
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * Embeds through a cache: a hit returns at once (progress reports (n, n)); a miss embeds and
 * stores. A cache that fails to read or write is treated as empty: vectors can always be remade.
 */
export async function embedCached(
  embedder: Embedder,
  cache: VectorCache | null,
  texts: string[],
  opts: EmbedProgressOptions = {},
): Promise<Float32Array[]> {
  const key = cache ? vectorCacheKey(embedder.modelId, texts) : '';
  if (cache) {
    const hit = await cache.get(key).catch(() => null);
    if (hit && hit.length === texts.length && hit.every((v) => v.length === embedder.dimensions)) {
      opts.onProgress?.(texts.length, texts.length);
      return hit;
    }
  }
  const vectors = await embedder.embed(texts, opts);
  if (cache) await cache.set(key, vectors).catch(() => undefined);
  return vectors;
}

// ---- SHA-256 (pure; crypto.subtle is async and absent in some test environments) -------------

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

export function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  const bitLen = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32));
  view.setUint32(padded.length - 4, bitLen >>> 0);

  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, '0')).join('');
}
