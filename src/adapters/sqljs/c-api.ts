// The part of SQLite's C interface that sql.js exports on its module (its typings leave it out),
// for the paths that go past sql.js's Statement: scans read cells in place (scan.ts), imports
// bind cells from one buffer (bulk-insert.ts).

export interface SqliteC {
  _sqlite3_prepare_v2(db: number, sql: number, bytes: number, out: number, tail: number): number;
  _sqlite3_bind_double(stmt: number, i: number, v: number): number;
  _sqlite3_bind_text(stmt: number, i: number, text: number, bytes: number, destructor: number): number;
  _sqlite3_step(stmt: number): number;
  _sqlite3_column_type(stmt: number, j: number): number;
  _sqlite3_column_double(stmt: number, j: number): number;
  _sqlite3_column_text(stmt: number, j: number): number;
  _sqlite3_column_bytes(stmt: number, j: number): number;
  _sqlite3_reset(stmt: number): number;
  _sqlite3_clear_bindings(stmt: number): number;
  _sqlite3_finalize(stmt: number): number;
  _sqlite3_errmsg(db: number): number;
  _malloc(n: number): number;
  _free(p: number): void;
  stackSave(): number;
  stackAlloc(n: number): number;
  stackRestore(p: number): void;
  stringToNewUTF8(s: string): number;
  UTF8ToString(p: number, max?: number): string;
}

export const SQLITE_ROW = 100;
export const SQLITE_DONE = 101;
/** SQLITE_TRANSIENT: SQLite copies a bound text at once. */
export const TRANSIENT = -1;

/** Prepares `sql` on the connection `handle`; returns the statement's address. */
export function prepare(
  C: SqliteC,
  handle: number,
  heap: () => Uint8Array,
  sql: string,
  fail: (what: string) => Error,
): number {
  const saved = C.stackSave();
  const text = C.stringToNewUTF8(sql);
  try {
    const out = C.stackAlloc(4);
    if (C._sqlite3_prepare_v2(handle, text, -1, out, 0) !== 0) throw fail('The statement could not be prepared');
    // The statement's address, written by SQLite at `out` (wasm memory is little-endian).
    const bytes = heap();
    return new DataView(bytes.buffer, bytes.byteOffset).getInt32(out, true);
  } finally {
    C._free(text);
    C.stackRestore(saved);
  }
}
