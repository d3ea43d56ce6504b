// The page's side of the rows worker: one worker, started on the first large sort and kept for the
// next. A worker that cannot start or fails leaves the caller to rank on its own thread.

import * as Comlink from 'comlink';
import type { ColumnRanks } from '../core/results/row-view';
import type { SqlValue } from '../core/types';

interface RowsApi {
  rankColumn(values: SqlValue[]): ColumnRanks;
}

export function createRowsWorker(): { rankColumn(values: SqlValue[]): Promise<ColumnRanks> } {
  let remote: Comlink.Remote<RowsApi> | null = null;
  let worker: Worker | null = null;
  const start = () => {
    worker = new Worker(new URL('./rows.worker.ts', import.meta.url), { type: 'module', name: 'dowser-rows' });
    remote = Comlink.wrap<RowsApi>(worker);
  };
  return {
    async rankColumn(values) {
      if (!remote) start();
      // A worker that dies mid-call would leave the promise waiting: its error ends the call.
      const died = new Promise<never>((_, reject) =>
        worker!.addEventListener('error', (e) => reject(new Error(e.message || 'the rows worker failed')), {
          once: true,
        }),
      );
      try {
        return await Promise.race([remote!.rankColumn(values), died]);
      } catch (e) {
        worker?.terminate();
        remote = null;
        worker = null;
        throw e;
      }
    },
  };
}
