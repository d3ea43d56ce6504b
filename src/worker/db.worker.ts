// Browser Web Worker entry: transport only. sql.js and the engine live here so the page's
// main thread never parses or queries a database.

import '../core/security/zod-jitless';
import * as Comlink from 'comlink';
import wasmUrl from 'sql.js/dist/sql-wasm.wasm?url';
import { SqljsEngine } from '../adapters/sqljs/engine';
import { loadSqlJs } from '../adapters/sqljs/runtime';
import { openBlobFile } from '../adapters/wasqlite/blob-file';
import { idbToolboxStore } from '../adapters/kept-indexes/idb-store';
import { xxhashContentHasher } from '../adapters/content-hash/xxhash';
import type { FileSqlite } from '../adapters/wasqlite/file-sqlite';
import type { ToolsOptions } from '../core/engine';
import type { ToolboxProgress } from '../core/tools/toolbox';
import './error-transfer';
import { throttleProgress } from './progress-throttle';
import { browserTokenizerWorkers } from './tokenizer-spawn';

/** wa-sqlite, once a file was read in place: its heap counts toward the worker's memory limit. */
let fileSqlite: FileSqlite | undefined;

const ready = loadSqlJs(async (imports) => {
  const wasm = await (await fetch(wasmUrl)).arrayBuffer();
  return (await WebAssembly.instantiate(wasm, imports)).instance;
}).then(
  ({ SQL, heapBytes, heap }) =>
    new SqljsEngine(SQL, undefined, {
      heapBytes,
      heap,
      tokenizerWorkers: browserTokenizerWorkers(),
      // A file's indexes are kept for its next opening (issue 26), unless the settings say no,
      // and reused only when the file's checksum is the one kept with them (issue 35).
      toolboxStore: idbToolboxStore(),
      contentHasher: xxhashContentHasher(),
      // Large files are read where they lie (issue 26); wa-sqlite loads only then.
      fileReading: {
        open: (source) => {
          if (!(source instanceof Blob)) throw new Error('The page reads files, not paths.');
          return openBlobFile(source);
        },
        sqlite: () =>
          import('../adapters/wasqlite/browser')
            .then((m) => m.loadBrowserFileSqlite())
            .then((loaded) => (fileSqlite = loaded)),
        heapBytes: () => fileSqlite?.heapBytes() ?? 0,
      },
    }),
);

// Expose a thin forwarder so calls made before sql.js finished loading simply wait for it.
const api = {
  // A File arrives as a handle and is read here: the page never copies the bytes.
  open: async (...a: Parameters<SqljsEngine['open']>) => (await ready).open(...a),
  check: async (id: string) => (await ready).check(id),
  close: async (id: string) => (await ready).close(id),
  query: async (...a: Parameters<SqljsEngine['query']>) => (await ready).query(...a),
  wholeValue: async (...a: Parameters<SqljsEngine['wholeValue']>) => (await ready).wholeValue(...a),
  heapBytes: async () => (await ready).heapBytes(),
  introspect: async (...a: Parameters<SqljsEngine['introspect']>) => (await ready).introspect(...a),
  columnStats: async (...a: Parameters<SqljsEngine['columnStats']>) => (await ready).columnStats(...a),
  buildTools: async (id: string, options?: ToolsOptions, onProgress?: (p: ToolboxProgress) => void) =>
    (await ready).buildTools(id, options, onProgress && throttleProgress(onProgress)),
  finishKeeping: async (...a: Parameters<SqljsEngine['finishKeeping']>) => (await ready).finishKeeping(...a),
  callTool: async (...a: Parameters<SqljsEngine['callTool']>) => (await ready).callTool(...a),
  setDescriptions: async (...a: Parameters<SqljsEngine['setDescriptions']>) => (await ready).setDescriptions(...a),
  linkQuestion: async (...a: Parameters<SqljsEngine['linkQuestion']>) => (await ready).linkQuestion(...a),
  grounding: async (...a: Parameters<SqljsEngine['grounding']>) => (await ready).grounding(...a),
  exportImported: async (id: string) => {
    const bytes = await (await ready).exportImported(id);
    return Comlink.transfer(bytes, [bytes.buffer]);
  },
};
export type DbWorkerApi = typeof api;

Comlink.expose(api);
