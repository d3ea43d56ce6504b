// Running the editor's SQL in the worker, with the time limit, Cancel and "fetch more".

import type { WholeValue } from '../../core/engine';
import { EXPORT_MAX_CELL_CHARS, EXPORT_MAX_RESULT_BYTES } from '../../core/db/result-budget';
import { toDowserError } from '../../core/errors';
import type { QueryResult } from '../../core/types';
import { getServices } from '../services/current';
import { quoteIdentIfNeeded } from '../../core/sql/quote';
import { useApp, type RunOrigin, type RunState } from '../store/app-store';

export interface RunQueryOptions {
  /** The database (default: the active one). */
  dbId?: string;
  origin?: RunOrigin;
  label?: string;
}

/**
 * Runs `sql` into the results grid. The grid keeps the statement with its rows, and the editor's
 * text at that moment, so it can say when the editor no longer holds what produced the rows.
 */
export async function runQuery(sql: string, options: RunQueryOptions = {}): Promise<void> {
  const { activeId, settings, setRun, sqlByDb } = useApp.getState();
  const dbId = options.dbId ?? activeId;
  if (!dbId) return;
  const base = {
    dbId,
    sql,
    origin: options.origin ?? 'editor',
    label: options.label,
    editorText: sqlByDb[dbId] ?? '',
  } satisfies Partial<RunState>;
  setRun({ status: 'running', ...base });
  getServices().engine.queryTimeoutMs = settings.queryTimeoutMs;
  const stillMine = () => {
    const now = useApp.getState().run;
    return now.sql === sql && now.dbId === dbId;
  };
  try {
    const result = await getServices().engine.query(dbId, sql, { maxRows: settings.pageSize });
    if (stillMine()) setRun({ status: 'done', ...base, result });
  } catch (e) {
    const err = toDowserError(e, 'sql_error');
    if (stillMine()) setRun({ status: 'error', ...base, error: { code: err.code, message: err.message } });
  }
}

/**
 * "Preview rows" of a table: its first rows in the editor and the grid. Asked from the Ask view,
 * the rows show there; from Tools or Evaluate the SQL tab opens on them.
 */
export function previewTable(dbId: string, table: string): void {
  const { setSql, view, setView, setRowsInAsk } = useApp.getState();
  const sql = `SELECT *\nFROM ${quoteIdentIfNeeded(table)}\nLIMIT 100;`;
  setSql(dbId, sql);
  if (view === 'ask') setRowsInAsk(true);
  else if (view !== 'sql') setView('sql');
  void runQuery(sql, { dbId, origin: 'preview', label: table });
}

export async function fetchMore(): Promise<void> {
  const { run, settings, setRun } = useApp.getState();
  if (run.status !== 'done' || !run.result?.truncated || !run.dbId || !run.sql) return;
  setRun({ ...run, fetchingMore: true });
  try {
    const prev = run.result;
    const next = await getServices().engine.query(run.dbId, run.sql, {
      maxRows: settings.pageSize,
      offset: prev.offset + prev.rows.length,
    });
    const merged = mergePages(prev, next);
    setRun({ ...run, result: merged, fetchingMore: false });
  } catch (e) {
    const err = toDowserError(e, 'sql_error');
    setRun({ ...run, fetchingMore: false });
    useApp.getState().notify('error', `Fetching more rows failed: ${err.message}`);
  }
}

/** The next page appended to the rows shown; its cut cells move down by the rows already there. */
export function mergePages(prev: QueryResult, next: QueryResult): QueryResult {
  const cut = [...(prev.cut ?? []), ...(next.cut ?? []).map((c) => ({ ...c, row: c.row + prev.rows.length }))];
  const { byteLimit: _previousLimit, ...rest } = prev;
  return {
    ...rest,
    rows: [...prev.rows, ...next.rows],
    truncated: next.truncated,
    columnTypes: prev.columnTypes.map((t, i) => [...new Set([...t, ...(next.columnTypes[i] ?? [])])]),
    elapsedMs: prev.elapsedMs + next.elapsedMs,
    ...(cut.length ? { cut } : {}),
    ...(next.byteLimit ? { byteLimit: next.byteLimit } : {}),
  };
}

/**
 * One value of the shown result, whole: the cell itself when the result carries all of it, else
 * read again from the worker (the statement re-runs for that row, up to WHOLE_VALUE_MAX).
 */
export async function wholeValue(result: QueryResult, index: number, column: number): Promise<WholeValue> {
  const { run } = useApp.getState();
  const value = result.rows[index][column];
  const cut = result.cut?.find((c) => c.row === index && c.column === column);
  if (!cut) {
    const length = typeof value === 'string' || value instanceof Uint8Array ? value.length : 0;
    return { value, length, cut: false };
  }
  if (!run.dbId || !run.sql) throw new Error('The statement behind this result is gone; run it again.');
  const { engine } = getServices();
  engine.queryTimeoutMs = useApp.getState().settings.queryTimeoutMs;
  return engine.wholeValue(run.dbId, run.sql, { row: result.offset + index, column });
}

/** Stops the running query: the worker restarts and reopens the databases from their bytes. */
export async function cancelQuery(): Promise<void> {
  await getServices().engine.cancel(useApp.getState().run.dbId ?? undefined);
}

/** All rows (up to a hard cap) for export, with the same read-only path and time limit. */
export const EXPORT_ROW_CAP = 1_000_000;

export async function fetchAllRows(dbId: string, sql: string) {
  return getServices().engine.query(dbId, sql, {
    maxRows: EXPORT_ROW_CAP,
    maxCellChars: EXPORT_MAX_CELL_CHARS,
    maxResultBytes: EXPORT_MAX_RESULT_BYTES,
  });
}
