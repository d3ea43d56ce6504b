// search_value in the columns a database searches itself (issue 36): PostgreSQL's trigram index
// (pg_trgm) answers `ILIKE '%…%'` from the index, so such columns are not
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

/** Whether the database's trigram index can answer a search for `query`. */
export const engineSearchable = (query: string) => query.trim().length >= MIN_QUERY;

/** `text` with LIKE's own characters escaped (ESCAPE '\\'): matched as written. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** `%text%` with LIKE's own characters escaped (ESCAPE '\\'). */
export const likePattern = (text: string) => `%${escapeLike(text)}%`;

function statement(columns: readonly ColumnValueSummary[], k: number): string {
  return columns
    .map((c, i) => {
      const col = quoteIdent(c.column);
      const matched = `SELECT ${col} AS v FROM ${quoteIdent(c.table)} WHERE ${col} ILIKE ? ESCAPE '\\' LIMIT ${MATCHED_ROWS}`;
      // m: the rows matched in all (a window over the groups, before LIMIT), to tell a capped count.
      return `(SELECT ${i} AS c, v, count(*) AS n, sum(count(*)) OVER () AS m FROM (${matched}) AS m${i} GROUP BY v ORDER BY lower(v) = lower(?) DESC, n DESC LIMIT ${k})`;
    })
    .join(' UNION ALL ');
}

/** How a value the server found matches the query, in search_value's terms. */
function matchOf(value: string, query: string): ValueHit['match'] {
  if (value === query) return 'exact';
  if (foldCase(value).trim() === foldCase(query).trim()) return 'case';
  const lower = value.toLowerCase();
  const q = query.toLowerCase();
  if (lower.startsWith(q)) return 'prefix';
  return 'contains';
}

/** How close each kind of match is (0 closest): the database's hits are sorted, and merged with the index's, by it. */
export const MATCH_RANK: Record<ValueHit['match'], number> = {
  exact: 0,
  case: 1,
  compact: 2,
  prefix: 3,
  word: 4,
  text: 5,
  like: 6,
  contains: 6,
  fuzzy: 7,
};

/**
 * The values of `columns` that contain `query` (case-blind), best first: as asked, then by rows.
 * Only by substring: pg_trgm's similarity (`%`) would catch misspellings, but on a column whose
 * values share trigrams (codes with one prefix, free text) it reads most of the index — seconds
 * on millions of rows (docs/decisions/075-trigram-search-by-substring.md). A failing search finds nothing.
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
  if (!engineSearchable(q) || columns.length === 0) return { hits: [], capped: [] };
  try {
    const r = await exec.query(statement(columns, k), {
      params: columns.flatMap(() => [likePattern(q), q]),
      maxRows: columns.length * k,
    });
    const capped = new Set<number>();
    const hits = r.rows
      .map(([c, v, n, m]): ValueHit => {
        const column = columns[Number(c)];
        if (Number(m) >= MATCHED_ROWS) capped.add(Number(c));
        const value = String(v);
        const match = matchOf(value, q);
        return {
          table: column.table,
          column: column.column,
          value,
          rows: Number(n),
          score: 1 - MATCH_RANK[match] / 10,
          match,
        };
      })
      .sort((a, b) => b.score - a.score || b.rows - a.rows);
    return { hits, capped: [...capped].map((i) => ({ table: columns[i].table, column: columns[i].column })) };
  } catch {
    // The index still answers for the other columns.
    return { hits: [], capped: [] };
  }
}

/** Values looked for per code, and codes per question. */
const CODE_VALUES = 5;
const MAX_CODES = 5;

/** A word of a question that looks like a stored code: letters and digits with a digit, 4+ characters. */
export interface CodeWord {
  text: string;
  start: number;
  end: number;
}

export function codeWords(question: string): CodeWord[] {
  const out: CodeWord[] = [];
  for (const m of question.matchAll(/[\p{L}\p{N}](?:[\p{L}\p{N}_\-./#]*[\p{L}\p{N}])?/gu)) {
    if (m[0].length >= 4 && /\p{N}/u.test(m[0]) && /[\p{L}\-_#./]/u.test(m[0]))
      out.push({ text: m[0], start: m.index!, end: m.index! + m[0].length });
    if (out.length === MAX_CODES) break;
  }
  return out;
}

/**
 * The stored values of `columns` equal to one of the codes but for case, asked of the server in
 * one statement (ILIKE without wildcards, which the trigram index answers): the question's value
 * links for the columns the value index does not hold. A failing lookup finds nothing.
 */
export async function codesInColumns(
  exec: SqlExecutor,
  columns: readonly ColumnRef[],
  codes: readonly CodeWord[],
): Promise<Array<{ code: CodeWord; table: string; column: string; value: string }>> {
  if (columns.length === 0 || codes.length === 0) return [];
  const sql = columns
    .map((c, i) => {
      const col = quoteIdent(c.column);
      const any = codes.map(() => `${col} ILIKE ? ESCAPE '\\'`).join(' OR ');
      return `(SELECT ${i} AS c, ${col} AS v FROM ${quoteIdent(c.table)} WHERE ${any} LIMIT ${CODE_VALUES})`;
    })
    .join(' UNION ALL ');
  try {
    const r = await exec.query(sql, {
      params: columns.flatMap(() => codes.map((code) => escapeLike(code.text))),
      maxRows: columns.length * CODE_VALUES,
    });
    return r.rows.flatMap(([c, v]) => {
      const value = String(v);
      const code = codes.find((w) => w.text.toLowerCase() === value.toLowerCase());
      const column = columns[Number(c)];
      return code ? [{ code, table: column.table, column: column.column, value }] : [];
    });
  } catch {
    return [];
  }
}
