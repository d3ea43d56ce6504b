import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { Worker } from 'node:worker_threads';
import type { SpawnedWorker } from '../db-client';

/** Starts the engine in a worker thread; TypeScript is loaded through tsx (see the .mjs bootstrap). */
export function spawnNodeDbWorker(): SpawnedWorker {
  const worker = new Worker(new URL('./db.worker-node.mjs', import.meta.url));
  worker.unref();
  return { endpoint: nodeEndpoint(worker), terminate: () => void worker.terminate() };
}
