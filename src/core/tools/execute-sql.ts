// ExecuteSQL: runs one read-only statement and returns a compact observation: columns, the first
// rows with long cells cut, the total row count and the time; on failure, repair detail.

import { z } from 'zod';
import { toDowserError } from '../errors';
import type { SqlExecutor } from '../executor';
import type { QueryResult, Schema } from '../types';
import { escapeControls } from '../prompt/schema-text';
import { columnData, errorData, rowData } from './quote-data';
import type { ValueLookup } from '../retrieval/types';
import { errorHints, explainEmptyAggregate, explainEmptyResult, type ColumnEvidence } from './sql-repair';
import type { Tool } from './types';

export const EXECUTE_SQL_ROWS = 20;
const CELL_CHARS = 60;
const COUNT_CAP = 100_000;

export interface ExecuteSqlContext {
  exec: SqlExecutor;
  schema: Schema;
  values?: ValueLookup;
  /** Types, values and keys that repair hints cite as evidence. */
  evidence?: ColumnEvidence;
}

export type ExecuteSqlResult =
  | {
      ok: true;
      sql: string;
      result: QueryResult;
      totalRows: number | null;
      totalIsLowerBound: boolean;
      emptyReasons: string[];
    }
  | {
      ok: false;
      sql: string;
      code: string;
      message: string;
      hints: string[];
      /** SQLite raised it while reading rows: the message can quote cell values (errors.ts). */
      quotesData?: boolean;
    };

const input = z.strictObject({ sql: z.string().min(1).describe('one statement') });

async function countRows(
  exec: SqlExecutor,
  sql: string,
  returned: number,
): Promise<{ total: number | null; lowerBound: boolean }> {
  try {
    const r = await exec.query(
      // Subqueries named: PostgreSQL asks for it, SQLite takes it.
      `SELECT count(*) FROM (SELECT 1 FROM (${sql.replace(/;\s*$/, '')}) AS answer LIMIT ${COUNT_CAP + 1}) AS capped`,
      { maxRows: 1 },
    );
    const n = Number(r.rows[0]?.[0] ?? returned);
    return n > COUNT_CAP ? { total: COUNT_CAP, lowerBound: true } : { total: n, lowerBound: false };
  } catch {
    // PRAGMA and EXPLAIN cannot be wrapped; the caller says "more than N".
    return { total: null, lowerBound: true };
  }
}

export const executeSqlTool: Tool<z.infer<typeof input>, ExecuteSqlResult, ExecuteSqlContext> = {
  name: 'execute_sql',
  description:
    'Runs one read-only SQLite statement: columns, first rows and row count, or the error with repair hints.',
  input,
  when: 'execute_sql to see rows when unsure; on an error, fix the SQL with the hints',
  contextOf: ({ exec, schema, values, evidence }) => ({ exec, schema, values, evidence }),
  // The SQL runs at once; its repair hints cite values and keys only once they are indexed.
  contextBeforeIndexes: ({ exec, schema }) => ({ exec, schema }),
  async run({ sql }, ctx) {
    try {
      const result = await ctx.exec.query(sql, { maxRows: EXECUTE_SQL_ROWS });
      let totalRows: number | null = result.rows.length;
      let totalIsLowerBound = false;
      if (result.truncated)
        ({ total: totalRows, lowerBound: totalIsLowerBound } = await countRows(ctx.exec, sql, result.rows.length));
      const emptyReasons =
        result.rows.length === 0
          ? await explainEmptyResult(ctx.exec, sql, ctx.schema, ctx.values)
          : result.rows.length === 1 && result.rows[0].every((v) => v === null || v === 0)
            ? await explainEmptyAggregate(ctx.exec, sql, ctx.schema, ctx.values)
            : [];
      return { ok: true, sql, result, totalRows, totalIsLowerBound, emptyReasons };
    } catch (e) {
      const err = toDowserError(e, 'sql_error');
      return {
        ok: false,
        sql,
        code: err.code,
        message: err.message,
        // Repair hints read compile errors (no such column…); a runtime message is data's to quote.
        // A server's own hint ("Perhaps you meant …", PostgreSQL's detail) comes first.
        hints:
          err.code === 'sql_error' && !err.quotesData
            ? [...(err.detail ? [err.detail] : []), ...errorHints(err.message, sql, ctx.schema, ctx.evidence)]
            : [],
        ...(err.quotesData ? { quotesData: true } : {}),
      };
    }
  },
  observe(out) {
    // SQLite's messages and the result's column names can carry names from the file: their
    // control characters are escaped and names quoted, so none can start a line of its own.
    if (!out.ok)
      return [`Error (${out.code}): ${escapeControls(errorData(out))}`, ...out.hints.map(escapeControls)].join('\n');
    const { result } = out;
    // An expression's name is its text: its literals are marked as the SQL's would be (columnData).
    const lines = [`Columns: ${result.columns.map((c) => columnData(c)).join(', ')}`];
    for (const row of result.rows) lines.push(rowData(row, CELL_CHARS));
    const shown = result.rows.length;
    if (shown === 0) lines.push('No rows.', ...out.emptyReasons.map(escapeControls));
    else if (result.truncated) {
      const total =
        out.totalRows === null
          ? `more than ${shown}`
          : out.totalIsLowerBound
            ? `more than ${out.totalRows}`
            : String(out.totalRows);
      lines.push(`(${shown} of ${total} rows shown)`);
    } else lines.push(`(${shown} row${shown === 1 ? '' : 's'})`, ...out.emptyReasons);
    // The time is shown to the person (the step card), not sent to the model on every request.
    return lines.join('\n');
  },
  face: {
    command: 'sql',
    // The SQL tab runs statements in the page.
    label: null,
    hint: 'Run one read-only statement, as the agent sees it.',
    fields: [{ name: 'sql', label: 'Statement', kind: 'text', required: true, positional: true }],
  },
};
