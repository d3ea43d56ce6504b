import type { SpawnedWorker } from './db-client';

export function spawnBrowserDbWorker(): SpawnedWorker {
  const worker = new Worker(new URL('./db.worker.ts', import.meta.url), { type: 'module', name: 'dowser-db' });
  return {
    endpoint: worker,
    terminate: () => worker.terminate(),
    // An error no call caught (the module failed to load, the worker ran out of memory).
    onDeath: (listener) =>
      worker.addEventListener('error', (e) => listener(e.message || 'the worker failed'), { once: true }),
  };
}
