// Main-thread side of the embedding worker. The worker is created on first use only: a page that
// never searches columns never downloads the runtime or a model.

import * as Comlink from 'comlink';
import type { ModelLoadProgress } from '../adapters/transformers/embedder';
import type { EmbedLoadResult, EmbedWorkerApi } from './embed.worker';
import './error-transfer';

export interface EmbeddingSettings {
  modelId: string;
  allowRemote: boolean;
}

export class EmbedClient {
  private remote: Comlink.Remote<EmbedWorkerApi> | null = null;
  private loaded: { key: string; result: Promise<EmbedLoadResult> } | null = null;

  private worker(): Comlink.Remote<EmbedWorkerApi> {
    this.remote ??= Comlink.wrap<EmbedWorkerApi>(
      new Worker(new URL('./embed.worker.ts', import.meta.url), { type: 'module', name: 'dowser-embed' }),
    );
    return this.remote;
  }

  /** Loads the model once per setting; later calls share the same result. */
  load(settings: EmbeddingSettings, onProgress?: (p: ModelLoadProgress) => void): Promise<EmbedLoadResult> {
    const key = `${settings.modelId}|${settings.allowRemote}`;
    if (this.loaded?.key !== key) {
      this.loaded = { key, result: this.worker().load(settings, onProgress ? Comlink.proxy(onProgress) : undefined) };
    }
    return this.loaded.result;
  }

  indexColumns(dbId: string, sentences: string[], onProgress?: (done: number, total: number) => void): Promise<number> {
    return this.worker().indexColumns(dbId, sentences, onProgress ? Comlink.proxy(onProgress) : undefined);
  }

  async scores(dbId: string, query: string): Promise<Float32Array | null> {
    return this.remote ? this.remote.scores(dbId, query) : null;
  }

  forget(dbId: string): void {
    void this.remote?.forget(dbId);
  }
}
