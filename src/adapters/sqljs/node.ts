// In-process engine for Node (CLI, unit tests, the CLI's worker thread): sql.js's wasm is read
// from its package, and files can be opened by path (read where the engine runs).

import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type EngineHost, SqljsEngine } from './engine';
import { loadSqlJs } from './runtime';
import { loadNodeFileSqlite, nodeFileSqliteHeapBytes, openNodeFile } from '../wasqlite/node';
import { xxhashContentHasher } from '../content-hash/xxhash';

const wasmPath = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');

/** Reads a database file (Node refuses files above 2 GiB with its own message). */
export async function readDatabaseFile(path: string): Promise<Uint8Array> {
  const b = await readFile(path);
  // A plain Uint8Array view: code written for the browser does not expect a Buffer's slice().
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * `host` adds to what Node provides: the CLI gives tokenizing workers (src/worker/node/spawn.ts)
 * and where indexes are kept.
 */
export async function createNodeEngine(
  host: Pick<
    EngineHost,
    'tokenizerWorkers' | 'valueCellBudget' | 'toolboxStore' | 'keepFromCells' | 'contentHasher' | 'toolWaitMs'
  > = {},
): Promise<SqljsEngine> {
  const wasm = await readFile(wasmPath);
  const { SQL, heapBytes, heap } = await loadSqlJs(
    async (imports) => (await WebAssembly.instantiate(wasm, imports)).instance,
  );
  return new SqljsEngine(SQL, undefined, {
    ...host,
    heapBytes,
    heap,
    readPath: readDatabaseFile,
    modifiedMs: (path) => statSync(path).mtimeMs,
    contentHasher: host.contentHasher ?? xxhashContentHasher(),
    fileReading: {
      open: (source) => {
        if (source instanceof Blob) throw new Error('In Node a database is read by path.');
        return openNodeFile(source.path);
      },
      sqlite: loadNodeFileSqlite,
      heapBytes: nodeFileSqliteHeapBytes,
    },
  });
}
