import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { Worker } from 'node:worker_threads';
import type { SpawnedWorker } from '../db-client';

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
