import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import { TOKENIZER_WORKER_MIN_CELLS, type TokenizerWorkers } from '../../core/retrieval/value-tokenizer';
import type { SpawnedWorker } from '../db-client';
import { remoteTokenizer } from '../tokenizer-client';

/**
 * A callback handed to a worker (a progress listener: Comlink.proxy) is a port this thread
 * listens on, and Comlink closes it only once the worker's side is garbage-collected: a CLI
 * command that passed one waited for a collection, 20-30 s, before the process could exit
 * (issue 35, item 16). The port is unref'd: the call that uses it holds the process while it runs.
 */
const proxyHandler = Comlink.transferHandlers.get('proxy')!;
Comlink.transferHandlers.set('proxy', {
  canHandle: proxyHandler.canHandle,
  serialize(value) {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(value, port1 as unknown as Comlink.Endpoint);
    port1.unref();
    return [port2, [port2 as unknown as Transferable]];
  },
  deserialize: proxyHandler.deserialize,
});

/** Starts the engine in a worker thread; TypeScript is loaded through tsx (see the .mjs bootstrap). */
export function spawnNodeDbWorker(): SpawnedWorker {
  const worker = new Worker(new URL('./db.worker-node.mjs', import.meta.url));
  worker.unref();
  let terminated = false;
  return {
    endpoint: nodeEndpoint(worker),
    terminate: () => {
      terminated = true;
      void worker.terminate();
    },
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
    onDeath(listener) {
      let told = false;
      const tell = (why: string) => {
        if (terminated || told) return;
        told = true;
        listener(why);
      };
      worker.on('error', (e) => tell(e instanceof Error ? e.message : String(e)));
      worker.on('exit', (code) => tell(`exit code ${code}`));
    },
  };
}

/** Tokenizing workers beside the engine (its thread in the CLI, or the process in bench and eval). */
export function nodeTokenizerWorkers(minCells = TOKENIZER_WORKER_MIN_CELLS): TokenizerWorkers {
  return {
    minCells,
    spawn() {
      if (availableParallelism() < 2) return null;
      const worker = new Worker(new URL('./tokenizer.worker-node.mjs', import.meta.url));
      let terminated = false;
      return remoteTokenizer({
        endpoint: nodeEndpoint(worker),
        terminate: () => {
          terminated = true;
          void worker.terminate();
        },
        onDeath(listener) {
          worker.on('error', (e) => listener(e instanceof Error ? e.message : String(e)));
          worker.on('exit', (code) => {
            if (!terminated) listener(`exit code ${code}`);
          });
        },
      });
    },
  };
}
