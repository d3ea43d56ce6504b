// SQLite reading a database from its file as needed (issue 26, decision 064): wa-sqlite's
// synchronous build with our read-only VFS. The engine opens files above a size with it (or
// any file when asked); pages come from the file on demand and memory stays bounded.

import type { RandomAccessFile } from '../../core/db/random-access';
import type { Connection } from '../sqljs/connection';
import { WaConnection } from './connection';
import type { WaSqliteModule } from './module';
import { READ_ONLY_VFS, ReadOnlyVfs } from './read-only-vfs';

const OPEN_READONLY = 0x1;
const OPEN_URI = 0x40;

export interface FileSqlite {
  /** Opens `file` read-only. `walAsRollback` reads a WAL-mode file's main file only. */
  open(file: RandomAccessFile, walAsRollback: boolean): Connection;
  /** The size of this SQLite's WebAssembly heap now (it never shrinks; see sqljs/runtime.ts). */
  heapBytes(): number;
}

let opened = 0;

/** Wraps an instantiated module: registers the read-only VFS once. */
export function fileSqlite(m: WaSqliteModule): FileSqlite {
  const vfs = new ReadOnlyVfs(m);
  const rc = m.vfs_register(vfs, false);
  if (rc !== 0) throw new Error(`SQLite refused the read-only file system (code ${rc}).`);
  return {
    heapBytes: () => m.HEAPU8.byteLength,
    open(file, walAsRollback) {
      const name = `/file-${++opened}`;
      vfs.register(name, file, walAsRollback);
      const out = m._malloc(4);
      const zName = m._malloc(64);
      const zVfs = m._malloc(64);
      m.stringToUTF8(name, zName, 64);
      m.stringToUTF8(READ_ONLY_VFS, zVfs, 64);
      try {
        const code = m._sqlite3_open_v2(zName, out, OPEN_READONLY | OPEN_URI, zVfs);
        const db = m.getValue(out, '*');
        const conn = new WaConnection(m, db);
        if (code !== 0) {
          const message = db ? m.UTF8ToString(m._sqlite3_errmsg(db)) : `code ${code}`;
          conn.close();
          throw new Error(message);
        }
        // Sorts and temporary indexes stay in memory: the VFS opens no temporary file.
        conn.exec('PRAGMA temp_store = MEMORY');
        const close = conn.close.bind(conn);
        conn.close = () => {
          close();
          vfs.forget(name);
          file.close();
        };
        return conn;
      } finally {
        m._free(out);
        m._free(zName);
        m._free(zVfs);
      }
    },
  };
}
