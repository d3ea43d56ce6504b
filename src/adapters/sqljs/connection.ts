// What the engine asks of an open SQLite database: the part of sql.js's Database and Statement
// it uses. sql.js's own objects satisfy it; a database read from its file as needed (issue 26,
// src/adapters/wasqlite) gives the same through another SQLite build.

import type { ScanRow } from '../../core/executor';
import type { SqlValue } from '../../core/types';

/** A value SQLite can bind (bigints are turned into these first). */
export type Bindable = number | string | null | Uint8Array;

export interface ConnectionStatement {
  bind(values: Bindable[]): unknown;
  /** True while a row is there. */
  step(): boolean;
  getColumnNames(): string[];
  /** The current row; integers as bigints with `useBigInt`. */
  get(params?: null, config?: { useBigInt: boolean }): SqlValue[];
  /** Binds, steps once and resets (inserts). */
  run(values: Bindable[]): unknown;
  free(): unknown;
}

/** Statements of a text one by one; what is left after the last one prepared. */
export interface StatementIterator extends Iterator<ConnectionStatement> {
  getRemainingSQL(): string;
}

export interface Connection {
  /** Runs every statement of `sql` (only ever our own SQL); results of those that return rows. */
  exec(sql: string): Array<{ columns: string[]; values: SqlValue[][] }>;
  prepare(sql: string): ConnectionStatement;
  iterateStatements(sql: string): StatementIterator;
  close(): void;
  /**
   * Where the connection can: steps one statement and visits each row in place (text as UTF-8
   * in SQLite's heap, decision 015); returns the rows visited. sql.js's own object has no such
   * method: the engine scans it with scan.ts.
   */
  scan?(sql: string, params: Bindable[], visit: (row: ScanRow) => void): number;
}
