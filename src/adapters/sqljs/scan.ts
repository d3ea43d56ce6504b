// Rows of a read-only statement visited in place: sql.js's exported C functions step the
// statement and text cells are read as UTF-8 bytes in the wasm heap (decision 015). sql.js's own
// Statement makes a JS value of every cell (a third of a whole-table read is that, and the
// garbage it leaves); the value index only needs the bytes of values it has not seen.

import type { Database, SqlJsStatic } from 'sql.js';
import { DowserError } from '../../core/errors';
import type { ScanRow } from '../../core/executor';
import type { SqlValue } from '../../core/types';
import { prepare, SQLITE_DONE, SQLITE_ROW, type SqliteC, TRANSIENT } from './c-api';

/** Whether this sql.js build exports what a scan needs (a newer build could drop some). */
export function canScan(SQL: SqlJsStatic): boolean {
  const c = SQL as unknown as Record<string, unknown>;
  return [
    '_sqlite3_prepare_v2',
    '_sqlite3_column_text',
    '_sqlite3_column_bytes',
    '_sqlite3_bind_text',
    'stackAlloc',
  ].every((f) => typeof c[f] === 'function');
}

/**
 * Runs `sql` (already checked to be one read) with `params` and calls `visit` with each row.
 * `heap` gives the wasm memory's current bytes (cheap: called once a text cell).
 */
export function scanRows(
  SQL: SqlJsStatic,
  db: Database,
  heap: () => Uint8Array,
  sql: string,
  params: readonly SqlValue[],
  visit: (row: ScanRow) => void,
): number {
  const C = SQL as unknown as SqliteC;
  const handle = (db as unknown as { db: number }).db;
  const fail = (what: string) => new DowserError('sql_error', `${what}: ${C.UTF8ToString(C._sqlite3_errmsg(handle))}`);
  const stmt = prepare(C, handle, heap, sql, fail);
  try {
    params.forEach((v, i) => bind(C, stmt, i + 1, v, fail));
    const row: ScanRow = {
      type: (j) => C._sqlite3_column_type(stmt, j),
      number: (j) => C._sqlite3_column_double(stmt, j),
      string: (j) => C.UTF8ToString(C._sqlite3_column_text(stmt, j)),
      textStart: (j) => C._sqlite3_column_text(stmt, j),
      textLength: (j) => C._sqlite3_column_bytes(stmt, j),
      // The current view: a grown memory has a new buffer (runtime.ts remakes the view then).
      heap,
    };
    let rows = 0;
    for (;;) {
      const rc = C._sqlite3_step(stmt);
      if (rc === SQLITE_DONE) return rows;
      if (rc !== SQLITE_ROW) throw fail('Reading failed');
      visit(row);
      rows++;
    }
  } finally {
    C._sqlite3_finalize(stmt);
  }
}

/** Numbers that are exact integers bind as text (SQLite's affinity makes them integers again). */
function bind(C: SqliteC, stmt: number, i: number, v: SqlValue, fail: (what: string) => Error): void {
  let rc: number;
  // A parameter left unbound is NULL (this build exports no sqlite3_bind_null).
  if (v === null) rc = 0;
  else if (typeof v === 'number' && !Number.isInteger(v)) rc = C._sqlite3_bind_double(stmt, i, v);
  else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') {
    const text = C.stringToNewUTF8(String(v));
    try {
      rc = C._sqlite3_bind_text(stmt, i, text, -1, TRANSIENT);
    } finally {
      C._free(text);
    }
  } else throw new DowserError('sql_error', 'A scan binds numbers, text or NULL only.');
  if (rc !== 0) throw fail('A value could not be bound');
}
