// The engine's side of a tokenizing worker: a TokenizerPort whose batches are posted to the
// worker (not awaited: the reading goes on) and whose `finish` waits for the parts. A worker
// that fails to start, throws or dies makes `finish` reject, and the toolbox then tokenizes on
// its own thread (core/tools/toolbox.ts).

import * as Comlink from 'comlink';
import { DowserError } from '../core/errors';
import type { ByteBatch, TokenizedParts, TokenizerPort } from '../core/retrieval/value-tokenizer';
import type { SpawnedWorker } from './db-client';
import type { TokenizerApi } from './tokenizer-api';

/** A batch's buffers: each batch owns its own (ValueIndexBuilder makes new ones), so they move instead of being copied. */
const transferables = (batch: ByteBatch) => [batch.bytes, batch.ends, batch.units].map((a) => a.buffer as ArrayBuffer);

export function remoteTokenizer(worker: SpawnedWorker): TokenizerPort {
  const remote = Comlink.wrap<TokenizerApi>(worker.endpoint);
  let failure: unknown = null;
  let closed = false;
  const died = new Promise<never>((_, reject) =>
    worker.onDeath?.((why) => reject(new DowserError('internal', `The tokenizing worker stopped: ${why}`))),
  );
  died.catch(() => undefined);
  const send = (call: Promise<void>) =>
    void call.catch((e) => {
      failure ??= e;
    });
  const close = () => {
    if (closed) return;
    closed = true;
    remote[Comlink.releaseProxy]();
    worker.terminate();
  };
  return {
    addValues(batch) {
      if (!closed && !failure) send(remote.addValues(Comlink.transfer(batch, transferables(batch))));
    },
    addTexts(batch) {
      if (!closed && !failure) send(remote.addTexts(Comlink.transfer(batch, transferables(batch))));
    },
    async finish(): Promise<TokenizedParts> {
      if (closed) throw new DowserError('internal', 'The tokenizing worker was closed.');
      try {
        const parts = await Promise.race([remote.finish(), died]);
        // Replies come in order: a batch that failed has said so before the parts arrive.
        if (failure) throw failure;
        return parts as TokenizedParts;
      } finally {
        close();
      }
    },
    close,
  };
}
