// Column statistics for the explorer now and SearchColumn later. Above a row budget they are
// computed on the first rows only and marked approximate, so one click never scans a huge table.

import { DowserError } from '../errors';
import type { SqlExecutor } from '../executor';
import { quoteIdent } from '../sql/quote';
import type { CategoryCount, ColumnInfo, ColumnStats, SqlValue, StorageClass, TableInfo } from '../types';

export const DEFAULT_ROW_BUDGET = 200_000;
/** Columns with at most this many distinct values list them all with counts. */
export const MAX_CATEGORIES = 20;
const SAMPLE_COUNT = 5;
const TEXT_CUT = 120;

/** What `looksLikeDate` asks of a column's min, max and samples. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function checkAborted(signal?: AbortSignal) {
  if (signal?.aborted) throw new DowserError('cancelled', 'Statistics were cancelled.');
}

/** Shortens long text and blobs so statistics stay small enough to show and to put in prompts. */
function cut(v: string): string {
  return `CASE typeof(${v}) WHEN 'text' THEN substr(${v}, 1, ${TEXT_CUT}) WHEN 'blob' THEN substr(${v}, 1, 16) ELSE ${v} END`;
}

export interface ColumnStatsInput {
  table: string;
  column: string;
  /** Known row count of the table, when the caller has it (saves a count). */
  rowCount?: number | null;
  rowBudget?: number;
  signal?: AbortSignal;
}

/**
 * The column is the table's rowid under another name (`INTEGER PRIMARY KEY`, not `DESC`): its
 * statistics need no scan. Declared types alone cannot tell `INTEGER PRIMARY KEY DESC` apart, but
 * only that one keeps a separate index for the key (origin 'pk'), which is asked.
 */
export async function isRowidAlias(exec: SqlExecutor, table: TableInfo, column: ColumnInfo): Promise<boolean> {
  if (table.kind !== 'table' || table.withoutRowid || column.pkIndex !== 1) return false;
  if (table.columns.some((c) => c !== column && c.pkIndex > 0)) return false;
  if (column.declaredType.trim().toUpperCase() !== 'INTEGER') return false;
  const r = await exec.query(`SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'`, { params: [table.name] });
  return Number(r.rows[0][0]) === 0;
}

/**
 * Statistics of a rowid alias (isRowidAlias) over every row, from the ends of the table's b-tree:
 * never NULL, every value distinct and an integer.
 */
export async function rowidAliasStats(exec: SqlExecutor, table: string, column: string): Promise<ColumnStats> {
  const c = quoteIdent(column);
  const r = await exec.query(`SELECT count(*), min(${c}), max(${c}) FROM ${quoteIdent(table)}`);
  const [n, min, max] = r.rows[0];
  const rows = Number(n);
  return {
    table,
    column,
    rowsScanned: rows,
    approximate: false,
    nullCount: 0,
    distinctCount: rows,
    storageClasses: rows > 0 ? { integer: rows } : {},
    min,
    max,
    samples: [],
    categories: null,
    avgLength: null,
    looksLikeDate: false,
  };
}

export async function columnStats(exec: SqlExecutor, input: ColumnStatsInput): Promise<ColumnStats> {
  const { table, column, signal } = input;
  const budget = input.rowBudget ?? DEFAULT_ROW_BUDGET;
  const t = quoteIdent(table);
  const c = quoteIdent(column);

  let total = input.rowCount ?? null;
  if (total == null) {
    const r = await exec.query(`SELECT count(*) FROM ${t}`);
    total = Number(r.rows[0][0]);
  }
  checkAborted(signal);
  const approximate = total > budget;
  const src = approximate ? `(SELECT ${c} AS v FROM ${t} LIMIT ${budget})` : `(SELECT ${c} AS v FROM ${t})`;

  const agg = await exec.query(
    `SELECT n, nn, d, ${cut('mn')} AS mn, ${cut('mx')} AS mx, ni, nr, nt, nb, al FROM (
       SELECT count(*) AS n, count(v) AS nn, count(DISTINCT v) AS d, min(v) AS mn, max(v) AS mx,
         sum(typeof(v) = 'integer') AS ni, sum(typeof(v) = 'real') AS nr,
         sum(typeof(v) = 'text') AS nt, sum(typeof(v) = 'blob') AS nb,
         avg(CASE WHEN typeof(v) = 'text' THEN length(v) END) AS al
       FROM ${src})`,
  );
  checkAborted(signal);
  const [n, nn, d, mn, mx, ni, nr, nt, nb, al] = agg.rows[0];
  const rowsScanned = Number(n);
  const nonNull = Number(nn);
  const distinctCount = Number(d);
  const storageClasses: Partial<Record<StorageClass, number>> = {};
  const add = (k: StorageClass, v: SqlValue) => {
    if (Number(v) > 0) storageClasses[k] = Number(v);
  };
  add('integer', ni);
  add('real', nr);
  add('text', nt);
  add('blob', nb);
  add('null', rowsScanned - nonNull);

  let categories: CategoryCount[] | null = null;
  if (distinctCount > 0 && distinctCount <= MAX_CATEGORIES && distinctCount < nonNull) {
    const cat = await exec.query(
      `SELECT ${cut('v')} AS value, count(*) AS n FROM ${src} WHERE v IS NOT NULL GROUP BY v ORDER BY n DESC, v LIMIT ${MAX_CATEGORIES}`,
      { maxRows: MAX_CATEGORIES },
    );
    categories = cat.rows.map(([value, count]) => ({ value, count: Number(count) }));
    checkAborted(signal);
  }

  let samples: SqlValue[] = [];
  if (Number(nt) > 0 || Number(nb) > 0) {
    const s = await exec.query(`SELECT DISTINCT ${cut('v')} FROM ${src} WHERE v IS NOT NULL LIMIT ${SAMPLE_COUNT}`, {
      maxRows: SAMPLE_COUNT,
    });
    samples = s.rows.map((r) => r[0]);
  }

  const textShare = nonNull > 0 ? Number(nt) / nonNull : 0;
  const looksLikeDate =
    textShare > 0.9 &&
    typeof mn === 'string' &&
    typeof mx === 'string' &&
    ISO_DATE.test(mn) &&
    ISO_DATE.test(mx) &&
    samples.every((v) => typeof v === 'string' && ISO_DATE.test(v));

  return {
    table,
    column,
    rowsScanned,
    approximate,
    nullCount: rowsScanned - nonNull,
    distinctCount,
    storageClasses,
    min: mn,
    max: mx,
    samples,
    categories,
    avgLength: al == null ? null : Math.round(Number(al) * 10) / 10,
    looksLikeDate,
  };
}
