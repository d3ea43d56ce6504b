// Browser Web Worker for the embedding model, apart from the database worker: that one is
// restarted on every query time-out, which must not throw away a loaded model. Column vectors
// stay here too; the page asks for similarity scores of a query, not for vectors.

import '../core/security/zod-jitless';
import * as Comlink from 'comlink';
import { createBrowserEmbedder } from '../adapters/transformers/browser';
import type { ModelLoadProgress, TransformersEmbedder } from '../adapters/transformers/embedder';
import { IdbVectorCache } from '../adapters/transformers/idb-vector-cache';
import { cosine, embedCached, isEmbedderUnavailable } from '../core/retrieval/embedder';
import './error-transfer';

let embedder: TransformersEmbedder | null = null;
const cache = new IdbVectorCache();
const columnVectors = new Map<string, Float32Array[]>();

export type EmbedLoadResult =
  | { ok: true; modelId: string; dimensions: number }
  | { ok: false; reason: string; message: string };

const api = {
  async load(
    options: { modelId: string; allowRemote: boolean; localModelPath?: string },
    onProgress?: (p: ModelLoadProgress) => void,
  ): Promise<EmbedLoadResult> {
    try {
      await embedder?.dispose();
      embedder = null;
      columnVectors.clear();
      embedder = await createBrowserEmbedder({ ...options, onLoadProgress: (p) => onProgress?.(p) });
      return { ok: true, modelId: embedder.modelId, dimensions: embedder.dimensions };
    } catch (e) {
      embedder = null;
      if (isEmbedderUnavailable(e)) return { ok: false, reason: e.reason, message: e.message };
      return { ok: false, reason: 'runtime', message: e instanceof Error ? e.message : String(e) };
    }
  },

  /** Embeds a database's column sentences (cached in IndexedDB by model + texts). */
  async indexColumns(
    dbId: string,
    sentences: string[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<number> {
    if (!embedder) throw new Error('No embedding model is loaded.');
    columnVectors.set(dbId, await embedCached(embedder, cache, sentences, { onProgress }));
    return sentences.length;
  },

  /** Cosine similarity of the query to each indexed column of the database, in index order. */
  async scores(dbId: string, query: string): Promise<Float32Array | null> {
    const vectors = columnVectors.get(dbId);
    if (!embedder || !vectors) return null;
    const [q] = await embedder.embed([query]);
    const out = Float32Array.from(vectors, (v) => cosine(q, v));
    return Comlink.transfer(out, [out.buffer as ArrayBuffer]);
  },

  forget(dbId: string): void {
    columnVectors.delete(dbId);
  },
};

export type EmbedWorkerApi = typeof api;

Comlink.expose(api);
