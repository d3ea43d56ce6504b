// The lowest port: one read-only statement against one open database. Schema, retrieval and
// tool code consume only this, so they sit below the engine contract (engine.ts) that uses them.

import type { DialectId } from './dialect/types';
import type { QueryOptions, QueryResult, SqlValue } from './types';

/** SQLite's storage classes as its C API numbers them (sqlite3_column_type). */
export const CELL_INTEGER = 1;
export const CELL_REAL = 2;
export const CELL_TEXT = 3;
export const CELL_BLOB = 4;
export const CELL_NULL = 5;

/**
 * The current row of a scan. Text is read where SQLite keeps it, as UTF-8 bytes, without making
 * a JS string: call `textStart(j)`, then `textLength(j)`, then `heap()` (SQLite may allocate
 * for the text, and the heap may grow). Everything is valid only until the visit returns.
 */
export interface ScanRow {
  /** CELL_INTEGER … CELL_NULL. */
  type(j: number): number;
  number(j: number): number;
  /** Column j as text, made as a JS string (for the rare cell that needs one). */
  string(j: number): string;
  textStart(j: number): number;
  textLength(j: number): number;
  heap(): Uint8Array;
}

/** Runs one read-only statement against one open database. */
export interface SqlExecutor {
  /** The engine's SQL (absent: SQLite): what is written for it follows that dialect (core/dialect). */
  dialect?: DialectId;
  query(sql: string, options?: QueryOptions): Promise<QueryResult>;
  /**
   * Where the engine can: runs one read-only statement and visits each row in place (whole-table
   * reads of the value index, decision 015); resolves to the number of rows visited.
   */
  scan?(sql: string, params: readonly SqlValue[], visit: (row: ScanRow) => void): Promise<number>;
  /**
   * Where the engine streams one statement's rows (a server's cursor, issue 36): every row once,
   * in one statement without paging, for whole-table reads; resolves to the rows visited. A visit
   * that returns false stops the read there.
   */
  stream?(sql: string, visit: (row: readonly SqlValue[]) => boolean | void): Promise<number>;
}

/** Anything that runs SQL by database id (a DbEngine) bound to one database. */
export function executorFor(
  engine: { query(id: string, sql: string, options?: QueryOptions): Promise<QueryResult> },
  id: string,
): SqlExecutor {
  return { query: (sql, options) => engine.query(id, sql, options) };
}
