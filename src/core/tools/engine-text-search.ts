// search_value in the columns a database searches itself (issue 36): PostgreSQL's trigram index
// (pg_trgm) answers `ILIKE '%…%'` and `%` (similarity) from the index, so such columns are not
// held in the value index and each search asks the server instead — one statement for all of
// them, each column's matches bounded before they are grouped, so a common word costs no more
// than MATCHED_ROWS rows per column.

import type { SqlExecutor } from '../executor';
import type { ColumnRef, ColumnValueSummary, ValueHit } from '../retrieval/types';
import { quoteIdent } from '../sql/quote';
import { foldCase } from '../text/normalize';

/** Columns searched at most in one search (the nearest first: the caller's order). */
export const ENGINE_COLUMNS = 4;
/** Matching rows read per column before grouping: past it, counts are of these rows only. */
export const MATCHED_ROWS = 2_000;
/** Trigrams need three characters; shorter queries are left to the value index and SQL. */
const MIN_QUERY = 3;

/** `%text%` with LIKE's own characters escaped (ESCAPE '\\'). */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

function statement(columns: readonly ColumnValueSummary[], k: number, similar: boolean): string {
  return columns
    .map((c, i) => {
      const col = quoteIdent(c.column);
      const where = similar ? `${col} ILIKE ? ESCAPE '\\' OR ${col} % ?` : `${col} ILIKE ? ESCAPE '\\'`;
      const matched = `SELECT ${col} AS v FROM ${quoteIdent(c.table)} WHERE ${where} LIMIT ${MATCHED_ROWS}`;
      const score = similar ? 'similarity(v, ?)' : '0';
      // m: the rows matched in all (a window over the groups, before LIMIT), to tell a capped count.
      return `(SELECT ${i} AS c, v, count(*) AS n, ${score} AS s, sum(count(*)) OVER () AS m FROM (${matched}) AS m${i} GROUP BY v ORDER BY lower(v) = lower(?) DESC, s DESC, n DESC LIMIT ${k})`;
    })
    .join(' UNION ALL ');
}

function params(columns: readonly ColumnValueSummary[], query: string, similar: boolean): string[] {
  const pattern = likePattern(query);
  const matched = similar ? [pattern, query] : [pattern];
  return columns.flatMap(() => [...(similar ? [query] : []), ...matched, query]);
}

/** How a value the server found matches the query, in search_value's terms. */
function matchOf(value: string, query: string): ValueHit['match'] {
  if (value === query) return 'exact';
  if (foldCase(value).trim() === foldCase(query).trim()) return 'case';
  const lower = value.toLowerCase();
  const q = query.toLowerCase();
  if (lower.startsWith(q)) return 'prefix';
  if (lower.includes(q)) return 'contains';
  return 'fuzzy';
}

const SCORE: Record<ValueHit['match'], number> = {
  exact: 1,
  case: 0.95,
  compact: 0.9,
  prefix: 0.7,
  word: 0.6,
  text: 0.5,
  like: 0.5,
  contains: 0.5,
  fuzzy: 0.4,
};

/**
 * The values of `columns` that contain `query` (case-blind) or are spelled like it, best first:
 * as asked, then by similarity and rows. A server without pg_trgm's `%` in reach (the extension
 * in a schema off the search path) is asked again with ILIKE alone; a failing search finds nothing.
 */
export interface EngineSearch {
  hits: ValueHit[];
  /** Columns where more than MATCHED_ROWS rows matched: their hits' counts are of those rows. */
  capped: ColumnRef[];
}

export async function searchByEngine(
  exec: SqlExecutor,
  columns: readonly ColumnValueSummary[],
  query: string,
  k: number,
): Promise<EngineSearch> {
  const q = query.trim();
  if (q.length < MIN_QUERY || columns.length === 0) return { hits: [], capped: [] };
  for (const similar of [true, false]) {
    try {
      const r = await exec.query(statement(columns, k, similar), {
        params: params(columns, q, similar),
        maxRows: columns.length * k,
      });
      const capped = new Set<number>();
      const hits = r.rows
        .map(([c, v, n, s, m]): ValueHit => {
          const column = columns[Number(c)];
          if (Number(m) >= MATCHED_ROWS) capped.add(Number(c));
          const value = String(v);
          const match = matchOf(value, q);
          return {
            table: column.table,
            column: column.column,
            value,
            rows: Number(n),
            score: SCORE[match] * (match === 'fuzzy' ? Number(s) || 0.5 : 1),
            match,
          };
        })
        .sort((a, b) => b.score - a.score || b.rows - a.rows);
      return { hits, capped: [...capped].map((i) => ({ table: columns[i].table, column: columns[i].column })) };
    } catch {
      // Tried again without similarity; a second failure finds nothing (the index still answers).
    }
  }
  return { hits: [], capped: [] };
}
