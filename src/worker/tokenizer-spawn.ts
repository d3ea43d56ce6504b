// Tokenizing workers started from the page's database worker (a nested dedicated worker).

import { TOKENIZER_WORKER_MIN_CELLS, type TokenizerWorkers } from '../core/retrieval/value-tokenizer';
import { remoteTokenizer } from './tokenizer-client';

export function browserTokenizerWorkers(minCells = TOKENIZER_WORKER_MIN_CELLS): TokenizerWorkers {
  return {
    minCells,
    spawn() {
      // One core gains nothing from a second thread; an old browser may lack nested workers.
      if (typeof Worker === 'undefined' || (navigator.hardwareConcurrency ?? 1) < 2) return null;
      let worker: Worker;
      try {
        worker = new Worker(new URL('./tokenizer.worker.ts', import.meta.url), {
          type: 'module',
          name: 'dowser-tokenizer',
        });
      } catch {
        return null;
      }
      return remoteTokenizer({
        endpoint: worker,
        terminate: () => worker.terminate(),
        onDeath: (listener) =>
          worker.addEventListener('error', (e) => listener(e.message || 'the worker failed'), { once: true }),
      });
    },
  };
}
