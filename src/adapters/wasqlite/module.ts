// The part of wa-sqlite's Emscripten module the file-backed connection calls: SQLite's own C
// functions, called synchronously (the synchronous build), and the heap they work in.

export interface WaSqliteModule {
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(p: number): void;
  _sqlite3_open_v2(name: number, out: number, flags: number, vfs: number): number;
  _sqlite3_close_v2(db: number): number;
  _sqlite3_errmsg(db: number): number;
  _sqlite3_prepare_v2(db: number, sql: number, bytes: number, out: number, tail: number): number;
  _sqlite3_step(stmt: number): number;
  _sqlite3_reset(stmt: number): number;
  _sqlite3_finalize(stmt: number): number;
  _sqlite3_column_count(stmt: number): number;
  _sqlite3_column_name(stmt: number, j: number): number;
  _sqlite3_column_type(stmt: number, j: number): number;
  _sqlite3_column_int64(stmt: number, j: number): number;
  _sqlite3_column_double(stmt: number, j: number): number;
  _sqlite3_column_text(stmt: number, j: number): number;
  _sqlite3_column_blob(stmt: number, j: number): number;
  _sqlite3_column_bytes(stmt: number, j: number): number;
  _sqlite3_bind_int(stmt: number, i: number, v: number): number;
  _sqlite3_bind_double(stmt: number, i: number, v: number): number;
  _sqlite3_bind_text(stmt: number, i: number, text: number, bytes: number, destructor: number): number;
  _sqlite3_bind_blob(stmt: number, i: number, data: number, bytes: number, destructor: number): number;
  _sqlite3_bind_null(stmt: number, i: number): number;
  _sqlite3_bind_parameter_count(stmt: number): number;
  getTempRet0(): number;
  getValue(p: number, type: string): number;
  UTF8ToString(p: number, maxBytes?: number): string;
  stringToUTF8(s: string, p: number, maxBytes: number): void;
  lengthBytesUTF8(s: string): number;
  vfs_register(vfs: object, makeDefault: boolean): number;
}
