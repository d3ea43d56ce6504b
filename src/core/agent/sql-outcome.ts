// What the loop needs from an execute_sql outcome: ran or not, rows or not, and a one-line
// summary for the `sql` event. The output crosses a worker boundary as plain data, so its shape is
// checked rather than trusted.

import type { ToolCallOutcome } from '../tools/registry';
import type { ExecuteSqlResult } from '../tools/execute-sql';
import type { SqlValue } from '../types';

export type SqlOutcome =
  | {
      ok: true;
      sql: string;
      empty: boolean;
      columns: string[];
      rows: SqlValue[][];
      totalRows: number | null;
      truncated: boolean;
      summary: string;
    }
  | {
      ok: false;
      /** The engine's error code: sql_error (SQLite refused it), read_only, timeout, … */
      code: string;
      sql: string;
      empty: false;
      columns: string[];
      rows: SqlValue[][];
      totalRows: null;
      truncated: false;
      summary: string;
    };

/** The same query written again (spacing, case, a trailing `;`) compares equal. */
export const normalizeSql = (sql: string): string =>
  sql
    .replace(/\s+/g, ' ')
    .replace(/\s*;\s*$/, '')
    .trim()
    .toLowerCase();

/** Null when the call did not reach the database (bad arguments, time-out, tool failure). */
export function readSqlOutcome(outcome: ToolCallOutcome): SqlOutcome | null {
  if (!outcome.ok || outcome.tool !== 'execute_sql') return null;
  const out = outcome.output as ExecuteSqlResult | null;
  if (!out || typeof out !== 'object' || typeof out.sql !== 'string') return null;
  if (!out.ok) {
    return {
      ok: false,
      code: out.code,
      sql: out.sql,
      empty: false,
      columns: [],
      rows: [],
      totalRows: null,
      truncated: false,
      summary: `error (${out.code}): ${out.message}`.slice(0, 200),
    };
  }
  const { columns, rows, truncated } = out.result;
  const shown = rows.length;
  const total = out.totalRows;
  const count =
    shown === 0
      ? 'no rows'
      : truncated
        ? `${total === null || out.totalIsLowerBound ? 'more than ' : ''}${total ?? shown} rows`
        : `${shown} row${shown === 1 ? '' : 's'}`;
  return {
    ok: true,
    sql: out.sql,
    empty: shown === 0,
    columns,
    rows,
    totalRows: truncated ? total : shown,
    truncated,
    summary: `${count}, ${columns.length} column${columns.length === 1 ? '' : 's'}`,
  };
}
