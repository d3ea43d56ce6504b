// Node worker_threads entry, the same engine behind the same Comlink protocol as the browser
// worker. Used by the shared executor test suite and by the worker-restart tests.

import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort } from 'node:worker_threads';
import { cacheFolder, fileToolboxStore, keepFromCellsSetting } from '../../adapters/kept-indexes/file-store';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { parseCellBudget } from '../../core/retrieval/distinct-values';
import '../error-transfer';
import { nodeTokenizerWorkers } from './spawn';

// DOWSER_INDEX_CELLS (checked by the CLI before it starts this thread): the value index's budget.
const { budget } = parseCellBudget(process.env.DOWSER_INDEX_CELLS);
// DOWSER_CACHE: where a file's indexes are kept for its next opening (issue 26); `off`: nowhere.
const folder = cacheFolder(process.env);
const keepFrom = keepFromCellsSetting(process.env);
const engine = await createNodeEngine({
  tokenizerWorkers: nodeTokenizerWorkers(),
  valueCellBudget: budget,
  ...(folder ? { toolboxStore: fileToolboxStore(folder) } : {}),
  ...(keepFrom !== undefined ? { keepFromCells: keepFrom } : {}),
});
Comlink.expose(engine, nodeEndpoint(parentPort!));
