// SearchValue's fallback for values the index does not hold: columns that were 'sampled' (their
// rare values) or 'like-fallback' (unique-looking or long text). Searched at query time with LIKE,
// one scan per table for all its fallback columns, counting matches per column in memory (the
// same one-scan idea as distinct-values.ts). Bounded: at most MAX_MATCHED_ROWS matching rows are
// read per table, so a query matching most of a huge table cannot stall (counts of values beyond
// that bound are then lower bounds), and at most MAX_LIKE_TABLES tables per search.

import type { SqlExecutor } from '../executor';
import { quoteIdent } from '../sql/quote';
import type { ColumnRef, DistinctColumnValues, ValueHit } from './types';
import { rankValue, toRankQuery } from './value-rank';
import { normalizeValue } from './value-text';

export interface LikeSearchOptions {
  table?: string;
  column?: string;
  k?: number;
  /** Scores a found value on the index's scale (ValueIndex.score), so both lists merge. */
  score?(value: string, rows: number): number;
  signal?: AbortSignal;
}

const MAX_MATCHED_ROWS = 50_000;
export const MAX_LIKE_TABLES = 8;
/** Shorter (normalised) queries are compared for equality, not searched inside values. */
const MIN_LIKE_QUERY = 3;

/** The columns a LIKE search covers for this scope: fallback columns, grouped by table, bounded. */
export function likeTargets(
  columns: readonly DistinctColumnValues[],
  scope: { table?: string; column?: string } = {},
): ColumnRef[] {
  const t = scope.table?.toLowerCase();
  const c = scope.column?.toLowerCase();
  const inScope = columns.filter(
    (col) => col.policy !== 'all' && (!t || col.table.toLowerCase() === t) && (!c || col.column.toLowerCase() === c),
  );
  const tables = [...new Set(inScope.map((col) => col.table))].slice(0, MAX_LIKE_TABLES);
  return inScope.filter((col) => tables.includes(col.table)).map(({ table, column }) => ({ table, column }));
}

/** `%` and `_` match literally; `\` is the escape character. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => '\\' + ch);
}

/**
 * The pattern for a query: its words in order with anything between them, so "john smith"
 * finds "John  Smith" and "John Q. Smith". Words keep their accents: LIKE folds only ASCII case.
 */
export function likePattern(query: string): string {
  const words = query.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return '%' + words.map(escapeLike).join('%') + '%';
}

export async function likeFallbackSearch(
  exec: SqlExecutor,
  columns: readonly DistinctColumnValues[],
  query: string,
  options: LikeSearchOptions = {},
): Promise<ValueHit[]> {
  const k = Math.max(1, options.k ?? 5);
  const norm = normalizeValue(query);
  if (norm === '') return [];
  const targets = likeTargets(columns, options);
  const score = options.score ?? defaultScore(query);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of targets) byTable.set(table, [...(byTable.get(table) ?? []), column]);

  const hits: ValueHit[] = [];
  for (const [table, cols] of byTable) {
    if (options.signal?.aborted) break;
    const counts = await countMatches(exec, table, cols, query, norm.length < MIN_LIKE_QUERY);
    cols.forEach((column, i) => {
      for (const [value, rows] of counts[i])
        hits.push({ table, column, value, rows, score: score(value, rows), match: 'like' });
    });
  }
  return hits.sort((a, b) => b.score - a.score || b.rows - a.rows).slice(0, k);
}

/** Matching values per column with their row counts, from one scan of the table. */
async function countMatches(
  exec: SqlExecutor,
  table: string,
  cols: string[],
  query: string,
  equalityOnly: boolean,
): Promise<Array<Map<string, number>>> {
  const test = (c: string) => (equalityOnly ? `(${c} = ? COLLATE NOCASE)` : `(${c} LIKE ? ESCAPE '\\')`);
  const param = equalityOnly ? query.trim() : likePattern(query);
  const quoted = cols.map(quoteIdent);
  // typeof: LIKE would also match numbers written as text ('%12%' finds 1200).
  const flags = quoted.map((c) => `typeof(${c}) = 'text' AND ${test(c)}`);
  const sql = `SELECT ${quoted.map((c, i) => `${flags[i]}, ${c}`).join(', ')} FROM ${quoteIdent(table)} WHERE ${flags.map((f) => `(${f})`).join(' OR ')} LIMIT ${MAX_MATCHED_ROWS}`;
  const params = [...cols.map(() => param), ...cols.map(() => param)];
  const counts = cols.map(() => new Map<string, number>());
  let result;
  try {
    result = await exec.query(sql, { maxRows: MAX_MATCHED_ROWS, params });
  } catch {
    return counts; // an unreadable table finds nothing; the other tables still answer
  }
  for (const row of result.rows) {
    for (let i = 0; i < cols.length; i++) {
      const value = row[2 * i + 1];
      if (Number(row[2 * i]) === 1 && typeof value === 'string') counts[i].set(value, (counts[i].get(value) ?? 0) + 1);
    }
  }
  return counts;
}

/** Scoring without an index: the re-ranking features with every word equally informative. */
function defaultScore(query: string): (value: string, rows: number) => number {
  const rq = toRankQuery(query);
  return (value, rows) => rankValue(rq, normalizeValue(value), rows, { idf: () => 1, maxRows: MAX_MATCHED_ROWS }).score;
}
