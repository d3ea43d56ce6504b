// search_value in the columns a database searches itself (issue 36): PostgreSQL's trigram index
// (pg_trgm) answers `ILIKE '%…%'` from the index, so such columns are not
// held in the value index and each search asks the server instead — one statement for all of
// them, each column's matches bounded before they are grouped, so a common word costs no more
// than MATCHED_ROWS rows per column.
//
// The index must still read every posting of every trigram of the query before its first row:
// for a phrase of common words on millions of rows, a second. So a large column is first searched
// in a fixed sample of its pages (about SAMPLE_ROWS rows, a few milliseconds); when the phrase is
// common there, the sample answers, and only a column where it is rare asks the index
// (docs/decisions/078-sampled-trigram-search.md).

import { dialectOf } from '../dialect/registry';
import type { Dialect } from '../dialect/types';
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

/** Rows a column's sample reads, about (whole pages are sampled). */
export const SAMPLE_ROWS = 10_000;
/** Columns with fewer rows are asked of the index at once: it answers them fast anyway. */
export const SAMPLE_FROM = 5 * SAMPLE_ROWS;
/** Rows of a sample that must match for the sample to answer (fewer: the index is asked). */
export const SAMPLE_ENOUGH = 10;

/** Where a column's rows are read from: the whole table, or a sample of its pages. */
type Source = (c: ColumnValueSummary) => { from: string; limit: string };

const whole: Source = (c) => ({ from: quoteIdent(c.table), limit: ` LIMIT ${MATCHED_ROWS}` });

/** The sample's share of a column's table, in percent. */
const samplePercent = (c: ColumnValueSummary) => Math.min(100, (100 * SAMPLE_ROWS) / c.rowsScanned);

const sampled =
  (dialect: Dialect): Source =>
  (c) => ({ from: quoteIdent(c.table) + dialect.sample!(samplePercent(c)), limit: '' });

function statement(columns: readonly ColumnValueSummary[], k: number, source: Source): string {
  return columns
    .map((c, i) => {
      const col = quoteIdent(c.column);
      const { from, limit } = source(c);
      const matched = `SELECT ${col} AS v FROM ${from} WHERE ${col} ILIKE ? ESCAPE '\\'${limit}`;
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
  /** Columns answered by a sample of about `sampleRows` of their `rows`: their hits' counts are the sample's. */
  sampled: Array<ColumnRef & { sampleRows: number; rows: number }>;
}

/** One statement's hits per column (by index into `columns`), and the rows each column matched. */
async function ask(
  exec: SqlExecutor,
  columns: readonly ColumnValueSummary[],
  q: string,
  k: number,
  source: Source,
): Promise<{ hits: Map<number, ValueHit[]>; matched: Map<number, number> }> {
  const r = await exec.query(statement(columns, k, source), {
    params: columns.flatMap(() => [likePattern(q), q]),
    maxRows: columns.length * k,
  });
  const hits = new Map<number, ValueHit[]>();
  const matched = new Map<number, number>();
  for (const [c, v, n, m] of r.rows) {
    const i = Number(c);
    const column = columns[i];
    const value = String(v);
    const match = matchOf(value, q);
    matched.set(i, Number(m));
    hits.set(i, [
      ...(hits.get(i) ?? []),
      { table: column.table, column: column.column, value, rows: Number(n), score: 1 - MATCH_RANK[match] / 10, match },
    ]);
  }
  return { hits, matched };
}

export async function searchByEngine(
  exec: SqlExecutor,
  columns: readonly ColumnValueSummary[],
  query: string,
  k: number,
): Promise<EngineSearch> {
  const q = query.trim();
  const none: EngineSearch = { hits: [], capped: [], sampled: [] };
  if (!engineSearchable(q) || columns.length === 0) return none;
  const dialect = dialectOf(exec.dialect);
  const ref = (c: ColumnValueSummary): ColumnRef => ({ table: c.table, column: c.column });
  const hits: ValueHit[] = [];
  // Rows a hit stands for, to order hits of a sample among the index's: its count scaled up.
  const weight = new Map<ValueHit, number>();
  const sampledColumns: EngineSearch['sampled'] = [];
  let rest = [...columns];
  // Large columns first in a sample: those where the query is common there are answered by it.
  const large = dialect.sample ? columns.filter((c) => c.rowsScanned >= SAMPLE_FROM) : [];
  if (large.length) {
    try {
      const found = await ask(exec, large, q, k, sampled(dialect));
      for (const [i, n] of found.matched) {
        if (n < SAMPLE_ENOUGH) continue;
        const c = large[i];
        const share = samplePercent(c) / 100;
        for (const h of found.hits.get(i) ?? []) weight.set(h, h.rows / share);
        hits.push(...(found.hits.get(i) ?? []));
        sampledColumns.push({ ...ref(c), sampleRows: Math.round(c.rowsScanned * share), rows: c.rowsScanned });
        rest = rest.filter((r) => r !== c);
      }
    } catch {
      // The index answers them below.
    }
  }
  const capped: ColumnRef[] = [];
  if (rest.length) {
    try {
      const found = await ask(exec, rest, q, k, whole);
      for (const list of found.hits.values()) hits.push(...list);
      for (const [i, n] of found.matched) if (n >= MATCHED_ROWS) capped.push(ref(rest[i]));
    } catch {
      // The index still answers for the other columns.
    }
  }
  const rowsOf = (h: ValueHit) => weight.get(h) ?? h.rows;
  hits.sort((a, b) => b.score - a.score || rowsOf(b) - rowsOf(a));
  return { hits, capped, sampled: sampledColumns };
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
