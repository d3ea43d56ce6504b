// The lowest port: one read-only statement against one open database. Schema, retrieval and
// tool code consume only this, so they sit below the engine contract (engine.ts) that uses them.

import type { QueryOptions, QueryResult } from './types';

/** Runs one read-only statement against one open database. */
export interface SqlExecutor {
  query(sql: string, options?: QueryOptions): Promise<QueryResult>;
}

/** Anything that runs SQL by database id (a DbEngine) bound to one database. */
export function executorFor(
  engine: { query(id: string, sql: string, options?: QueryOptions): Promise<QueryResult> },
  id: string,
): SqlExecutor {
  return { query: (sql, options) => engine.query(id, sql, options) };
}
