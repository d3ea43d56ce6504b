// wa-sqlite in Node (CLI, tests): the wasm read from the package; files read with positioned reads.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import Factory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import { blockCached, type RandomAccessFile } from '../../core/db/random-access';
import { fileSqlite, type FileSqlite } from './file-sqlite';
import type { WaSqliteModule } from './module';

const wasmPath = createRequire(import.meta.url).resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.wasm');

let loading: Promise<FileSqlite> | undefined;
let loaded: FileSqlite | undefined;

/** The module is made once per thread and shared by every file it opens. */
export function loadNodeFileSqlite(): Promise<FileSqlite> {
  loading ??= (async () => {
    const wasmBinary = await readFile(wasmPath);
    return (loaded = fileSqlite((await Factory({ wasmBinary })) as WaSqliteModule));
  })();
  return loading;
}

/** Its heap, 0 before it was loaded. */
export const nodeFileSqliteHeapBytes = (): number => loaded?.heapBytes() ?? 0;

/** A file read where it lies, a block at a time; the descriptor is closed with the database. */
export function openNodeFile(path: string): RandomAccessFile {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  return blockCached({
    size,
    read: (offset, into) => readSync(fd, into, 0, into.length, offset),
    close: () => closeSync(fd),
  });
}
