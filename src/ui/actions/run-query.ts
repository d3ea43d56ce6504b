// Running the editor's SQL in the worker, with the time limit, Cancel and "fetch more".

import { toDowserError } from '../../core/errors';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';

export async function runQuery(sql: string): Promise<void> {
  const { activeId, settings, setRun } = useApp.getState();
  if (!activeId) return;
  setRun({ status: 'running', dbId: activeId, sql });
  getServices().engine.queryTimeoutMs = settings.queryTimeoutMs;
  try {
    const result = await getServices().engine.query(activeId, sql, { maxRows: settings.pageSize });
    if (useApp.getState().run.sql === sql) setRun({ status: 'done', dbId: activeId, sql, result });
  } catch (e) {
    const err = toDowserError(e, 'sql_error');
    if (useApp.getState().run.sql === sql)
      setRun({ status: 'error', dbId: activeId, sql, error: { code: err.code, message: err.message } });
  }
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
    const merged = {
      ...prev,
      rows: [...prev.rows, ...next.rows],
      truncated: next.truncated,
      columnTypes: prev.columnTypes.map((t, i) => [...new Set([...t, ...(next.columnTypes[i] ?? [])])]),
      elapsedMs: prev.elapsedMs + next.elapsedMs,
    };
    setRun({ ...run, result: merged, fetchingMore: false });
  } catch (e) {
    const err = toDowserError(e, 'sql_error');
    setRun({ ...run, fetchingMore: false });
    useApp.getState().notify('error', `Fetching more rows failed: ${err.message}`);
  }
}

/** Stops the running query: the worker restarts and reopens the databases from their bytes. */
export async function cancelQuery(): Promise<void> {
  await getServices().engine.cancel();
}

/** All rows (up to a hard cap) for export, with the same read-only path and time limit. */
export const EXPORT_ROW_CAP = 1_000_000;

export async function fetchAllRows(dbId: string, sql: string) {
  return getServices().engine.query(dbId, sql, { maxRows: EXPORT_ROW_CAP });
}
