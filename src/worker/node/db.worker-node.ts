// Node worker_threads entry, the same engine behind the same Comlink protocol as the browser
// worker. Used by the shared executor test suite and by the worker-restart tests.

import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort } from 'node:worker_threads';
import { createNodeEngine } from '../../adapters/sqljs/node';
import '../error-transfer';
import { nodeTokenizerWorkers } from './spawn';

const engine = await createNodeEngine({ tokenizerWorkers: nodeTokenizerWorkers() });
Comlink.expose(engine, nodeEndpoint(parentPort!));
