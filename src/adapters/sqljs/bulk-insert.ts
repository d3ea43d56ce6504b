// Rows inserted through SQLite's C functions (issue 26: importing a CSV within 2x SQLite's own
// `.import`). sql.js's Statement.run makes a JS array of bytes and a heap allocation for every
// text cell, then frees them: about 2 s of a 1-million-row, 7-column import. Here a row's text
// cells are encoded straight into one buffer in the wasm heap and bound where they lie
// (SQLITE_STATIC: the buffer is not touched again until the row is stepped).

import type { Database, SqlJsStatic } from 'sql.js';
import { DowserError } from '../../core/errors';
import type { SqlValue } from '../../core/types';
import { prepare, SQLITE_DONE, type SqliteC } from './c-api';

/**
 * Texts up to this long are encoded here, longer ones by TextEncoder.encodeInto: a call into
 * the browser costs about 0.7 µs in Chromium's workers, 2.9 s of a 1-million-row import
 * (Node's is cheap), while the loop below does a short text in a few dozen nanoseconds.
 */
const SHORT_TEXT = 256;

/** UTF-8 of `s` into `out` from `at` (room checked by the caller), as TextEncoder writes it; returns its length. */
export function encodeShort(s: string, out: Uint8Array, at: number): number {
  let p = at;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
      continue;
    }
    if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        out[p++] = 0xf0 | (c >> 18);
        out[p++] = 0x80 | ((c >> 12) & 0x3f);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
        continue;
      }
      c = 0xfffd; // a lone surrogate, as TextEncoder replaces it
    }
    out[p++] = 0xe0 | (c >> 12);
    out[p++] = 0x80 | ((c >> 6) & 0x3f);
    out[p++] = 0x80 | (c & 0x3f);
  }
  return p - at;
}

/** SQLITE_STATIC: SQLite reads a bound text where it is, until the statement is stepped or reset. */
const STATIC = 0;

export interface BulkInserter {
  /** Inserts one row (as many values as the statement has parameters; null binds NULL). */
  add(row: readonly SqlValue[]): void;
  /** Frees the statement and the buffer; the inserter is spent. */
  close(): void;
}

/** Whether this sql.js build exports what a bulk insert needs. */
export function canBulkInsert(SQL: SqlJsStatic): boolean {
  const c = SQL as unknown as Record<string, unknown>;
  return ['_sqlite3_prepare_v2', '_sqlite3_bind_text', '_sqlite3_reset', '_sqlite3_clear_bindings', '_malloc'].every(
    (f) => typeof c[f] === 'function',
  );
}

/**
 * An inserter for `sql` (an INSERT with `?` parameters) on `db`. `heap` gives the wasm memory's
 * current bytes (a grown memory has a new buffer).
 */
export function bulkInserter(SQL: SqlJsStatic, db: Database, heap: () => Uint8Array, sql: string): BulkInserter {
  const C = SQL as unknown as SqliteC;
  const handle = (db as unknown as { db: number }).db;
  const fail = (what: string) => new DowserError('sql_error', `${what}: ${C.UTF8ToString(C._sqlite3_errmsg(handle))}`);
  const encoder = new TextEncoder();
  const stmt = prepare(C, handle, heap, sql, fail);
  let capacity = 1 << 16;
  let buffer = C._malloc(capacity);
  const starts: number[] = [];
  const lengths: number[] = [];

  /** Encodes the row's text cells one after another; false when the buffer is too small. */
  const encode = (row: readonly SqlValue[]): boolean => {
    const bytes = heap();
    let at = buffer;
    const end = buffer + capacity;
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (typeof v !== 'string') continue;
      // UTF-8 takes at most 3 bytes per UTF-16 unit: with that room, encoding never stops short.
      if (at + v.length * 3 > end) return false;
      const written =
        v.length <= SHORT_TEXT ? encodeShort(v, bytes, at) : encoder.encodeInto(v, bytes.subarray(at, end)).written;
      starts[i] = at;
      lengths[i] = written;
      at += written;
    }
    return true;
  };

  return {
    add(row) {
      if (!encode(row)) {
        let need = 0;
        for (const v of row) if (typeof v === 'string') need += v.length * 3;
        C._free(buffer);
        capacity = Math.max(capacity * 2, need);
        buffer = C._malloc(capacity);
        if (!buffer) throw new DowserError('sql_error', 'Out of memory while importing a row.');
        encode(row);
      }
      for (let i = 0; i < row.length; i++) {
        const v = row[i];
        // An unbound parameter is NULL (clear_bindings after each row; this build has no bind_null).
        if (v === null) continue;
        if (typeof v !== 'string' && typeof v !== 'number')
          throw new DowserError('sql_error', 'An import binds numbers, text or NULL only.');
        const rc =
          typeof v === 'string'
            ? C._sqlite3_bind_text(stmt, i + 1, starts[i], lengths[i], STATIC)
            : C._sqlite3_bind_double(stmt, i + 1, v);
        if (rc !== 0) throw fail('A value could not be bound');
      }
      const rc = C._sqlite3_step(stmt);
      C._sqlite3_reset(stmt);
      C._sqlite3_clear_bindings(stmt);
      if (rc !== SQLITE_DONE) throw fail('A row could not be inserted');
    },
    close() {
      C._sqlite3_finalize(stmt);
      C._free(buffer);
    },
  };
}
