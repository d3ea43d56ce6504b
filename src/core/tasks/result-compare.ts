// Are two results the same? As multisets of rows, or row by row when the statement orders them.
// Values are compared by storage class and value (1 and '1' differ, 1 and 1.0 are one number,
// blobs by their bytes); column names are not compared (an alias is no change of result).

import type { SqlValue } from '../types';

export type CompareOutcome = { same: true } | { same: false; why: string };

function cellKey(v: SqlValue): string {
  if (v === null) return 'n';
  if (typeof v === 'number') return `d${Object.is(v, -0) ? 0 : v}`;
  if (typeof v === 'bigint') return `d${v}`;
  if (typeof v === 'string') return `s${JSON.stringify(v)}`;
  let hex = '';
  for (const b of v) hex += b.toString(16).padStart(2, '0');
  return `b${hex}`;
}

const rowKey = (row: SqlValue[]) => row.map(cellKey).join('\u0000');

export function compareResults(
  a: { columns: string[]; rows: SqlValue[][] },
  b: { columns: string[]; rows: SqlValue[][] },
  { inOrder }: { inOrder: boolean },
): CompareOutcome {
  if (a.columns.length !== b.columns.length)
    return { same: false, why: `it returns ${b.columns.length} columns instead of ${a.columns.length}` };
  if (a.rows.length !== b.rows.length)
    return { same: false, why: `it returns ${b.rows.length} rows instead of ${a.rows.length}` };
  if (inOrder) {
    const i = a.rows.findIndex((row, k) => rowKey(row) !== rowKey(b.rows[k]));
    return i < 0 ? { same: true } : { same: false, why: `row ${i + 1} differs (the SQL orders its rows)` };
  }
  const counts = new Map<string, number>();
  for (const row of a.rows) counts.set(rowKey(row), (counts.get(rowKey(row)) ?? 0) + 1);
  for (const row of b.rows) {
    const k = rowKey(row);
    const n = counts.get(k) ?? 0;
    if (n === 0) return { same: false, why: 'it returns rows the original does not (compared as multisets)' };
    counts.set(k, n - 1);
  }
  return { same: true };
}
