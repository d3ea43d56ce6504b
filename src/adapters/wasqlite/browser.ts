// wa-sqlite in the browser's database worker, loaded only when a file is read in place (its
// 1.1 MB of wasm is not fetched for the files that fit in memory).

import Factory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { fileSqlite, type FileSqlite } from './file-sqlite';
import type { WaSqliteModule } from './module';

let loading: Promise<FileSqlite> | undefined;

export function loadBrowserFileSqlite(): Promise<FileSqlite> {
  loading ??= (async () => {
    const wasmBinary = await (await fetch(wasmUrl)).arrayBuffer();
    return fileSqlite((await Factory({ wasmBinary })) as WaSqliteModule);
  })();
  return loading;
}
