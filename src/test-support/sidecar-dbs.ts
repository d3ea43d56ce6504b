// Databases caught with their sidecar files, written by SQLite itself (wa-sqlite's synchronous
// build over a file system held in memory): one copied while a transaction was open (the
// database half-written, its originals in a hot -journal), one in WAL mode copied before its
// commits were checkpointed (with the frames of an unfinished transaction after them). Tests
// compare what Dowser reads from them with what SQLite made of the same files.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Factory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import { WaConnection } from '../adapters/wasqlite/connection';
import type { WaSqliteModule } from '../adapters/wasqlite/module';

const OK = 0;
const CANTOPEN = 14;
const NOTFOUND = 12;
const IOERR_SHORT_READ = 522;
const OPEN_CREATE = 0x4;
const OPEN_READWRITE = 0x2;
const OPEN_DELETEONCLOSE = 0x8;
const VFS_NAME = 'dowser-test-memory';

interface MemoryFile {
  data: Uint8Array;
  size: number;
}

/** Files in memory that SQLite reads and writes like a disk's (no shared memory: WAL needs exclusive locking). */
class MemoryVfs {
  readonly name = VFS_NAME;
  readonly mxPathname = 256;
  readonly files = new Map<string, MemoryFile>();
  private readonly open = new Map<number, { name: string; file: MemoryFile; deleteOnClose: boolean }>();
  private temp = 0;

  constructor(private readonly m: WaSqliteModule) {}

  hasAsyncMethod(): boolean {
    return false;
  }

  /** A copy of the file's bytes as they are now. */
  copy(name: string): Uint8Array | undefined {
    const f = this.files.get(name);
    return f ? f.data.slice(0, f.size) : undefined;
  }

  xOpen(_vfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
    const name = zName ? this.m.UTF8ToString(zName) : `/temp-${++this.temp}`;
    let file = this.files.get(name);
    if (!file) {
      if (!(flags & OPEN_CREATE)) return CANTOPEN;
      file = { data: new Uint8Array(0), size: 0 };
      this.files.set(name, file);
    }
    this.open.set(pFile, { name, file, deleteOnClose: !!(flags & OPEN_DELETEONCLOSE) });
    this.setI32(pOutFlags, flags | OPEN_READWRITE);
    return OK;
  }

  xDelete(_vfs: number, zName: number): number {
    this.files.delete(this.m.UTF8ToString(zName));
    return OK;
  }

  xAccess(_vfs: number, zName: number, _flags: number, pResOut: number): number {
    this.setI32(pResOut, this.files.has(this.m.UTF8ToString(zName)) ? 1 : 0);
    return OK;
  }

  xFullPathname(_vfs: number, zName: number, nOut: number, zOut: number): number {
    this.m.stringToUTF8(this.m.UTF8ToString(zName), zOut, nOut);
    return OK;
  }

  xRandomness(_vfs: number, nByte: number, pOut: number): number {
    crypto.getRandomValues(this.m.HEAPU8.subarray(pOut, pOut + nByte));
    return nByte;
  }

  xGetLastError(): number {
    return OK;
  }

  xClose(pFile: number): number {
    const entry = this.open.get(pFile);
    this.open.delete(pFile);
    if (entry?.deleteOnClose) this.files.delete(entry.name);
    return OK;
  }

  xRead(pFile: number, pData: number, iAmt: number, lo: number, hi: number): number {
    const { file } = this.open.get(pFile)!;
    const offset = hi * 0x100000000 + (lo >>> 0);
    const into = this.m.HEAPU8.subarray(pData, pData + iAmt);
    const n = Math.max(0, Math.min(iAmt, file.size - offset));
    into.set(file.data.subarray(offset, offset + n));
    if (n < iAmt) {
      into.fill(0, n);
      return IOERR_SHORT_READ;
    }
    return OK;
  }

  xWrite(pFile: number, pData: number, iAmt: number, lo: number, hi: number): number {
    const { file } = this.open.get(pFile)!;
    const offset = hi * 0x100000000 + (lo >>> 0);
    this.resize(file, Math.max(file.size, offset + iAmt));
    file.data.set(this.m.HEAPU8.subarray(pData, pData + iAmt), offset);
    return OK;
  }

  xTruncate(pFile: number, lo: number, hi: number): number {
    const { file } = this.open.get(pFile)!;
    this.resize(file, Math.min(file.size, hi * 0x100000000 + (lo >>> 0)));
    return OK;
  }

  xSync(): number {
    return OK;
  }

  xFileSize(pFile: number, pSize: number): number {
    const { file } = this.open.get(pFile)!;
    new DataView(this.m.HEAPU8.buffer, pSize, 8).setBigInt64(0, BigInt(file.size), true);
    return OK;
  }

  xLock(): number {
    return OK;
  }

  xUnlock(): number {
    return OK;
  }

  xCheckReservedLock(_pFile: number, pResOut: number): number {
    this.setI32(pResOut, 0);
    return OK;
  }

  xFileControl(): number {
    return NOTFOUND;
  }

  xSectorSize(): number {
    return 512;
  }

  xDeviceCharacteristics(): number {
    return 0;
  }

  private resize(file: MemoryFile, size: number): void {
    if (size > file.data.length) {
      const grown = new Uint8Array(Math.max(size, file.data.length * 2));
      grown.set(file.data.subarray(0, file.size));
      file.data = grown;
    } else if (size < file.size) file.data.fill(0, size, file.size);
    file.size = size;
  }

  private setI32(p: number, v: number): void {
    new DataView(this.m.HEAPU8.buffer, p, 4).setInt32(0, v, true);
  }
}

let made: Promise<{ m: WaSqliteModule; vfs: MemoryVfs }> | undefined;

function sqlite() {
  made ??= (async () => {
    const wasm = createRequire(import.meta.url).resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.wasm');
    const m = (await Factory({ wasmBinary: readFileSync(wasm) })) as WaSqliteModule;
    const vfs = new MemoryVfs(m);
    if (m.vfs_register(vfs, false) !== 0) throw new Error('The test file system was refused.');
    return { m, vfs };
  })();
  return made;
}

let opened = 0;

/** A connection to a new database `/<name>` in the memory file system; `run(connection, vfs, path)`. */
async function withDatabase<T>(run: (db: WaConnection, vfs: MemoryVfs, path: string) => T): Promise<T> {
  const { m, vfs } = await sqlite();
  const path = `/db-${++opened}.sqlite`;
  const out = m._malloc(4);
  const zName = m._malloc(256);
  const zVfs = m._malloc(64);
  m.stringToUTF8(path, zName, 256);
  m.stringToUTF8(VFS_NAME, zVfs, 64);
  const rc = m._sqlite3_open_v2(zName, out, OPEN_READWRITE | OPEN_CREATE, zVfs);
  const db = new WaConnection(m, m.getValue(out, '*'));
  m._free(out);
  m._free(zName);
  m._free(zVfs);
  try {
    if (rc !== 0) throw new Error(`cannot open ${path} (${rc})`);
    return run(db, vfs, path);
  } finally {
    db.close();
    for (const name of [...vfs.files.keys()]) if (name.startsWith(path)) vfs.files.delete(name);
  }
}

/** 300 rows of 400-byte texts on 1 KiB pages: a transaction over them spills pages from a 10-page cache. */
const ROWS_SQL = `
CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
INSERT INTO t SELECT i, printf('%.400c', 'a') FROM n;`;

/** Changes every row and adds as many: the database grows and most of its pages change. */
const HALF_WRITTEN_SQL = `UPDATE t SET v = printf('%.500c', 'b'); INSERT INTO t SELECT id + 1000, v FROM t;`;

export interface HotJournalDb {
  /** The database as it was before the transaction: what SQLite shows after rolling it back. */
  committed: Uint8Array;
  /** The database file copied mid-transaction: changed pages written, the file grown. */
  db: Uint8Array;
  journal: Uint8Array;
}

/** A database copied with its hot -journal while a transaction that changed most pages was open. */
export function hotJournalDb(): Promise<HotJournalDb> {
  return withDatabase((db, vfs, path) => {
    db.exec(`PRAGMA page_size = 1024; PRAGMA journal_mode = DELETE; ${ROWS_SQL}`);
    const committed = vfs.copy(path)!;
    db.exec(`PRAGMA cache_size = 10; BEGIN; ${HALF_WRITTEN_SQL}`);
    const caught = { committed, db: vfs.copy(path)!, journal: vfs.copy(`${path}-journal`)! };
    db.exec('ROLLBACK');
    return caught;
  });
}

export interface WalDb {
  /** The database file, in WAL mode, with only the commits before the log began. */
  db: Uint8Array;
  /** Two commits, then the frames of a transaction that never committed. */
  wal: Uint8Array;
  /** The same database once SQLite checkpointed its committed frames (the open transaction rolled back). */
  checkpointed: Uint8Array;
}

/** A WAL-mode database copied with its -wal before a checkpoint, mid-transaction. */
export function walDb(): Promise<WalDb> {
  return withDatabase((db, vfs, path) => {
    db.exec(`PRAGMA page_size = 1024; ${ROWS_SQL}`);
    // No shared memory in this file system: the log's index is kept in the connection.
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0');
    db.exec("UPDATE t SET v = 'committed once' WHERE id <= 100");
    db.exec("DELETE FROM t WHERE id > 250; INSERT INTO t VALUES (5000, 'committed twice')");
    db.exec(`PRAGMA cache_size = 10; BEGIN; ${HALF_WRITTEN_SQL}`);
    const caught = { db: vfs.copy(path)!, wal: vfs.copy(`${path}-wal`)! };
    db.exec('ROLLBACK; PRAGMA wal_checkpoint(TRUNCATE)');
    return { ...caught, checkpointed: vfs.copy(path)! };
  });
}

/**
 * The database file after SQLite itself opened it beside `journal` or `wal` (copies): a hot
 * journal rolled back, a log's commits checkpointed into it. What Dowser must read the same.
 */
export function sqliteOpens(files: { db: Uint8Array; journal?: Uint8Array; wal?: Uint8Array }): Promise<Uint8Array> {
  return withDatabase((db, vfs, path) => {
    // The database file is open already: its entry is filled in, not replaced.
    const put = (name: string, bytes: Uint8Array) => {
      const file = vfs.files.get(name) ?? { data: new Uint8Array(0), size: 0 };
      Object.assign(file, { data: bytes.slice(), size: bytes.length });
      vfs.files.set(name, file);
    };
    put(path, files.db);
    if (files.journal) put(`${path}-journal`, files.journal);
    if (files.wal) put(`${path}-wal`, files.wal);
    if (files.wal) db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('SELECT count(*) FROM sqlite_schema');
    if (files.wal) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return vfs.copy(path)!;
  });
}
