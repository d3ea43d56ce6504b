// The interfaces core needs from its environment. Core receives implementations; it never
// imports sql.js, a Worker or the file system itself.

import type { ColumnStats, OpenReport, QueryOptions, QueryResult, Schema } from './types';

/** Runs one read-only statement against one open database. */
export interface SqlExecutor {
  query(sql: string, options?: QueryOptions): Promise<QueryResult>;
}

export interface OpenRequest {
  /** Chosen by the caller so it can be reused when the engine restarts. */
  id: string;
  name: string;
  bytes: Uint8Array;
}

export interface StatsOptions {
  /** Above this many rows, statistics come from the first rows only and are marked approximate. */
  rowBudget?: number;
}

/**
 * Several open databases behind one transport: in-process (Node, tests) or a Web Worker
 * (browser). Every method is async so both transports share one contract and one test suite.
 */
export interface DbEngine {
  open(request: OpenRequest): Promise<OpenReport>;
  /** Integrity check (PRAGMA quick_check) and other findings; slower than open, so separate. */
  check(id: string): Promise<OpenReport>;
  close(id: string): Promise<void>;
  query(id: string, sql: string, options?: QueryOptions): Promise<QueryResult>;
  introspect(id: string): Promise<Schema>;
  columnStats(id: string, table: string, column: string, options?: StatsOptions): Promise<ColumnStats>;
}

/** A DbEngine bound to one database, as core's schema and tool code consume it. */
export function executorFor(engine: Pick<DbEngine, 'query'>, id: string): SqlExecutor {
  return { query: (sql, options) => engine.query(id, sql, options) };
}
