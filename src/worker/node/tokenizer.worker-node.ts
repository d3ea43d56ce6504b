// Node worker_threads entry of the tokenizing worker (src/worker/tokenizer.worker.ts's twin).

import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { parentPort } from 'node:worker_threads';
import { tokenizerApi } from '../tokenizer-api';

Comlink.expose(tokenizerApi(), nodeEndpoint(parentPort!));
