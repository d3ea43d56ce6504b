import type { SpawnedWorker } from './db-client';

export function spawnBrowserDbWorker(): SpawnedWorker {
  const worker = new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module', name: 'dowser-db' });
  return { endpoint: worker, terminate: () => worker.terminate() };
}
