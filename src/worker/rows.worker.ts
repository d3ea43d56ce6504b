// Browser Web Worker entry: ranks a large result's column for the grid's first sort by it, off the
// page's thread (core/results/row-view.ts; issue 24). Transport only.

import * as Comlink from 'comlink';
import { rankColumn } from '../core/results/row-view';
import type { SqlValue } from '../core/types';

Comlink.expose({
  rankColumn(values: SqlValue[]) {
    const ranks = rankColumn(values);
    return Comlink.transfer(ranks, [ranks.order.buffer]);
  },
});
