// Column statistics on a server without reading the table: pg_stats (null fraction, distinct
// count, most common values with their frequencies, histogram bounds) where the table was
// analysed; otherwise a TABLESAMPLE of about ROW_BUDGET rows (or the whole table when smaller).
// Both are marked approximate; counts are scaled to the table's estimated rows.

import { postgresDialect } from '../../core/dialect/postgres/dialect';
import { MAX_CATEGORIES } from '../../core/schema/stats';
import { ISO_DATE } from '../../core/schema/stats';
import type { CategoryCount, ColumnStats, SqlValue, StorageClass } from '../../core/types';
import { parseArrayText } from './array-text';
import type { ReadRunner } from './session';
import { booleanValue, byteaValue, integerValue, numericValue } from './values';

const ROW_BUDGET = 100_000;
/** ANALYZE samples 300 × default_statistics_target (100) rows. */
const ANALYZE_READS_ALL_BELOW = 30_000;
const SAMPLES = 5;
const TEXT_CUT = 120;

export interface StatsTarget {
  schemaName: string;
  table: string;
  column: string;
  /** Estimated or counted rows of the table. */
  rows: number;
}

interface ColumnType {
  category: string;
  typeName: string;
}

/** A value from pg_stats' text arrays as a query would return it (values.ts). */
function typed(text: string | null, type: ColumnType): SqlValue {
  if (text === null) return null;
  if (type.category === 'N')
    return /^(smallint|integer|bigint|oid)$/.test(type.typeName) ? integerValue(text) : numericValue(text);
  if (type.category === 'B') return booleanValue(text);
  if (type.typeName === 'bytea') return byteaValue(text);
  return text.length > TEXT_CUT ? text.slice(0, TEXT_CUT) : text;
}

function storageOf(type: ColumnType): StorageClass {
  if (type.category === 'N') return /int|oid/.test(type.typeName) ? 'integer' : 'real';
  return type.typeName === 'bytea' ? 'blob' : 'text';
}

export async function serverColumnStats(
  run: ReadRunner,
  t: StatsTarget,
  quote: (s: string) => string,
): Promise<ColumnStats> {
  const relation = `${quote(t.schemaName)}.${quote(t.table)}`;
  const [typeRow] = await run.rows(
    `SELECT ty.typcategory, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a JOIN pg_type ty ON ty.oid = a.atttypid
      WHERE a.attrelid = $1::regclass AND a.attname = $2 AND NOT a.attisdropped`,
    [relation, t.column],
  );
  const type: ColumnType = { category: String(typeRow?.[0] ?? 'S'), typeName: String(typeRow?.[1] ?? 'text') };
  const [analysed] = await run.rows(
    `SELECT null_frac, n_distinct, most_common_vals::text, most_common_freqs::text, histogram_bounds::text, avg_width
       FROM pg_stats WHERE schemaname = $1 AND tablename = $2 AND attname = $3`,
    [t.schemaName, t.table, t.column],
  );
  return analysed ? fromPgStats(t, type, analysed) : fromSample(run, t, type, relation, quote(t.column));
}

function fromPgStats(t: StatsTarget, type: ColumnType, row: SqlValue[]): ColumnStats {
  const [nullFrac, nDistinct, mcvText, freqText, histText, avgWidth] = row;
  const rows = Math.max(0, Math.round(t.rows));
  const nulls = Math.round(Number(nullFrac) * rows);
  const distinct = Number(nDistinct) >= 0 ? Number(nDistinct) : Math.round(-Number(nDistinct) * rows);
  const mcv = mcvText === null ? [] : parseArrayText(String(mcvText));
  const freqs = freqText === null ? [] : parseArrayText(String(freqText)).map(Number);
  const bounds = histText === null ? [] : parseArrayText(String(histText));
  const commons: CategoryCount[] = mcv.map((v, i) => ({
    value: typed(v, type),
    count: Math.round((freqs[i] ?? 0) * rows),
  }));
  // Every value is among the most common ones: the list is the whole column.
  const covered = freqs.reduce((a, b) => a + b, 0) + Number(nullFrac);
  const categories = distinct <= MAX_CATEGORIES && covered > 0.999 && commons.length ? commons : null;
  const ordered = [...mcv, ...bounds].filter((v): v is string => v !== null).map((v) => typed(v, type));
  const sortable = type.category === 'N' ? (ordered as number[]).filter((v) => typeof v === 'number') : ordered;
  const min = bounds.length ? typed(bounds[0], type) : extreme(sortable, -1);
  const max = bounds.length ? typed(bounds[bounds.length - 1], type) : extreme(sortable, 1);
  return {
    table: t.table,
    column: t.column,
    rowsScanned: rows,
    // ANALYZE reads every row of a table this small: its fractions are exact as of then.
    approximate: rows > ANALYZE_READS_ALL_BELOW,
    nullCount: nulls,
    distinctCount: distinct,
    storageClasses: { [storageOf(type)]: rows - nulls, ...(nulls ? { null: nulls } : {}) },
    min,
    max,
    samples: commons.slice(0, SAMPLES).map((c) => c.value),
    categories,
    avgLength: type.category === 'S' && avgWidth !== null ? Number(avgWidth) : null,
    looksLikeDate: type.category === 'D' || isIsoDates(min, max),
  };
}

/** The histogram's ends are the range when there is one; else the most common values' extremes. */
function extreme(values: SqlValue[], sign: 1 | -1): SqlValue {
  let best: SqlValue = null;
  for (const v of values) if (best === null || (v !== null && (v > best ? sign > 0 : sign < 0))) best = v;
  return best;
}

const isIsoDates = (min: SqlValue, max: SqlValue) =>
  typeof min === 'string' && typeof max === 'string' && ISO_DATE.test(min) && ISO_DATE.test(max);

async function fromSample(
  run: ReadRunner,
  t: StatsTarget,
  type: ColumnType,
  relation: string,
  column: string,
): Promise<ColumnStats> {
  const percent = t.rows > ROW_BUDGET ? Math.max(0.01, (100 * ROW_BUDGET) / t.rows) : null;
  // REPEATABLE: the three queries below read the same sample, so the categories and examples are
  // of the rows counted.
  const sample = percent ? (postgresDialect.sample?.(percent) ?? '') : '';
  const source = `(SELECT ${column} AS v FROM ${relation}${sample}) s`;
  const orderable = 'NDSBT'.includes(type.category) || type.typeName === 'bytea';
  const [[total, nonNull, distinct, min, max, avgLength]] = await run.rows(
    `SELECT count(*), count(v), count(DISTINCT v), ${orderable ? 'min(v), max(v)' : 'NULL, NULL'},
            ${type.category === 'S' ? 'avg(char_length(v))::float8' : 'NULL'} FROM ${source}`,
  );
  // Counts are of the rows read (the sample's, when sampled), as SQLite's statistics of the first rows are.
  const counted = Number(total);
  let categories: CategoryCount[] | null = null;
  if (Number(distinct) <= MAX_CATEGORIES) {
    const groups = await run.rows(
      `SELECT v, count(*) FROM ${source} WHERE v IS NOT NULL GROUP BY v ORDER BY 2 DESC, 1 LIMIT ${MAX_CATEGORIES}`,
    );
    categories = groups.map(([value, n]) => ({ value: cutValue(value), count: Number(n) }));
  }
  const samples = (await run.rows(`SELECT DISTINCT v FROM ${source} WHERE v IS NOT NULL LIMIT ${SAMPLES}`)).map(([v]) =>
    cutValue(v),
  );
  const nulls = counted - Number(nonNull);
  const rows = counted;
  return {
    table: t.table,
    column: t.column,
    rowsScanned: rows,
    approximate: percent !== null,
    nullCount: nulls,
    distinctCount: Number(distinct),
    storageClasses: { [storageOf(type)]: rows - nulls, ...(nulls ? { null: nulls } : {}) },
    min: cutValue(min),
    max: cutValue(max),
    samples,
    categories,
    avgLength: avgLength === null ? null : Math.round(Number(avgLength) * 10) / 10,
    looksLikeDate: type.category === 'D' || isIsoDates(min, max),
  };
}

const cutValue = (v: SqlValue): SqlValue => (typeof v === 'string' && v.length > TEXT_CUT ? v.slice(0, TEXT_CUT) : v);
