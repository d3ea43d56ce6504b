// search_value: finds cell values close to what the question says ("Pairs", "jhon smith",
// "cafe"), so the model writes WHERE city = 'Paris' with the spelling the database uses. The
// value index holds every text value of the database (long texts by word, read back by rowid),
// so no search scans a table; date/time values are left to SQL, and the observation says so
// when the query is one. A search in a column that finds nothing shows what the column holds:
// all its values when they are few, else the most frequent (the index's spelling neighbours,
// prefixes and stems found nothing, so what is left is usually another way of saying it: a code,
// an abbreviation, another word, which the common values show).

import { z } from 'zod';
import type { SqlExecutor } from '../executor';
import { quoteIdent } from '../sql/quote';
import { escapeControls, promptIdent } from '../prompt/schema-text';
import { closestNames } from '../text/normalize';
import type { ColumnRef, ColumnValueSummary, ValueHit } from '../retrieval/types';
import type { ValueIndex } from '../retrieval/value-index';
import { isDateLike } from '../retrieval/value-text';
import { jsonData, quoteData } from './quote-data';
import type { Tool } from './types';
import { HOW_MANY_FIELD } from './fields';
import {
  ENGINE_COLUMNS,
  engineSearchable,
  likePattern,
  MATCH_RANK,
  MATCHED_ROWS,
  searchByEngine,
} from './engine-text-search';

export interface SearchValueInput {
  query: string;
  table?: string;
  column?: string;
  k?: number;
}

export interface SearchValueContext {
  values: ValueIndex;
  /** Reads back the long texts a search returns, by rowid. */
  exec: SqlExecutor;
}

export interface ValueSearchResult {
  query: string;
  /** Scope as resolved to the database's spelling; null when not given. */
  table: string | null;
  column: string | null;
  hits: ValueHit[];
  /** The query looks like a date or time, and these columns in scope hold such values, which are not indexed. */
  datesInSql: ColumnRef[];
  /**
   * Columns in scope with values left out of the index (the memory budget): how many rows, and
   * how many of the rows after the kept ones were searched with LIKE (at most LIKE_ROWS).
   */
  partlyIndexed?: Array<ColumnRef & { rows: number; searched: number }>;
  /** Columns the database searched itself (engine-text-search.ts), by substring. */
  searchedInDatabase?: ColumnRef[];
  /** Those of them where more rows matched than it counts. */
  countedUpTo?: ColumnRef[];
  /** Those of them answered by a sample of about `sampleRows` of their `rows` (the query is common there). */
  sampledInDatabase?: Array<ColumnRef & { sampleRows: number; rows: number }>;
  /** No hits in a scope naming a column: what the columns in scope hold (at most STORED_COLUMNS). */
  stored: StoredColumn[];
  /** Set when the scope names no known text column; `suggestions` then holds close names. */
  problem: string | null;
  suggestions: string[];
}

/** What a text column holds, shown when a search in it found nothing. */
export interface StoredColumn extends ColumnRef {
  /** Distinct short values; `values` lists them all when there are at most FEW_VALUES. */
  distinct: number;
  /** Distinct long texts (not listed). */
  texts: number;
  /** Date/time cells (not indexed). */
  dates: number;
  values: Array<{ value: string; rows: number }>;
}

export const DEFAULT_SEARCH_VALUE_K = 5;
/** Matches that found the value as asked: then no LIKE search is needed. */
const AS_ASKED = new Set<ValueHit['match']>(['exact', 'case', 'compact']);

/** Columns, and rows of each, a search scans with LIKE for values the index's budget left out. */
const LIKE_COLUMNS = 1;
const LIKE_ROWS = 1_000_000;

/**
 * The values of a column's rows left out of the index that contain `query` (case-blind for
 * ASCII, as LIKE is), from the first row not indexed on, within LIKE_ROWS rows.
 */
async function likeSearch(
  exec: SqlExecutor,
  c: ColumnValueSummary,
  query: string,
  k: number,
): Promise<{ hits: ValueHit[]; searched: number }> {
  const { rowid, from } = c.notIndexedFrom!;
  const col = quoteIdent(c.column);
  const window = `SELECT ${col} AS v FROM ${quoteIdent(c.table)} WHERE ${rowid} >= ? ORDER BY ${rowid} LIMIT ${LIKE_ROWS}`;
  try {
    const r = await exec.query(
      `SELECT v, count(*) AS n FROM (${window}) AS unindexed WHERE v LIKE ? ESCAPE '\\' GROUP BY v ORDER BY n DESC LIMIT ${k}`,
      { params: [from, likePattern(query)], maxRows: k },
    );
    return {
      searched: LIKE_ROWS,
      hits: r.rows.map((row) => ({
        table: c.table,
        column: c.column,
        value: String(row[0]),
        rows: Number(row[1]),
        score: 0.5,
        match: 'like' as const,
      })),
    };
  } catch {
    return { hits: [], searched: 0 };
  }
}
const VALUE_CHARS = 80;
/** A column with at most this many distinct values has them all listed when a search in it finds nothing. */
const FEW_VALUES = 30;
/** Otherwise its most frequent values, this many. */
const FREQUENT_VALUES = 5;
/** Columns described at most, when a column name alone is in several tables. */
const STORED_COLUMNS = 3;
/** Listed values are cut at this length. */
const STORED_CHARS = 60;

const input = z.strictObject({
  // Not trimmed at the end: a trailing space says the last word is complete ("Wicktal " is not "Wicktalda").
  query: z
    .string()
    .max(500)
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .transform((s) => s.trimStart())
    .describe('The value as the question says it'),
  table: z.string().trim().min(1).optional().describe('only this table'),
  column: z.string().trim().min(1).optional().describe('only this column'),
  k: z.number().int().min(1).max(20).default(DEFAULT_SEARCH_VALUE_K).describe('default 5'),
});

/** Names as the model may write them: quoted, bracketed or backticked, or `table.column`. */
function bareName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const m = name.match(/^\s*(?:"(.*)"|`(.*)`|\[(.*)\]|(.*?))\s*$/s);
  const bare = m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? name) : name;
  return bare.replace(/""/g, '"');
}

type Scope = { table?: string; column?: string } | { problem: string; suggestions: string[] };

/** Matches the requested table/column to the known text columns, case-insensitively. */
function resolveScope(columns: readonly ColumnValueSummary[], tableArg?: string, columnArg?: string): Scope {
  let table = bareName(tableArg);
  let column = bareName(columnArg);
  if (!table && column?.includes('.')) {
    const dot = column.indexOf('.');
    const maybeTable = bareName(column.slice(0, dot));
    if (columns.some((c) => c.table.toLowerCase() === maybeTable?.toLowerCase())) {
      table = maybeTable;
      column = bareName(column.slice(dot + 1));
    }
  }
  let candidates = [...columns];
  if (table) {
    const wanted = table.toLowerCase();
    candidates = candidates.filter((c) => c.table.toLowerCase() === wanted);
    if (candidates.length === 0) {
      const tables = [...new Set(columns.map((c) => c.table))];
      return {
        problem: `No table named ${JSON.stringify(table)} has text columns to search.`,
        suggestions: closestNames(table, tables),
      };
    }
    table = candidates[0].table;
  }
  if (column) {
    const wanted = column.toLowerCase();
    const inTable = candidates;
    candidates = candidates.filter((c) => c.column.toLowerCase() === wanted);
    if (candidates.length === 0) {
      const names = table ? inTable.map((c) => c.column) : [...new Set(columns.map((c) => `${c.table}.${c.column}`))];
      const close = table
        ? closestNames(column, names)
        : closestNames(
            column,
            columns.map((c) => c.column),
          ).flatMap((n) => names.filter((q) => q.endsWith('.' + n)));
      return {
        problem: `No text column named ${JSON.stringify(column)}${table ? ` in table ${JSON.stringify(table)}` : ''}.`,
        suggestions: close.slice(0, 5),
      };
    }
    column = candidates[0].column;
  }
  return { table, column };
}

async function run(inp: SearchValueInput, ctx: SearchValueContext): Promise<ValueSearchResult> {
  const k = inp.k ?? DEFAULT_SEARCH_VALUE_K;
  const columns = ctx.values.columns;
  const scope = resolveScope(columns, inp.table, inp.column);
  const base = { query: inp.query, hits: [], datesInSql: [], stored: [] };
  if ('problem' in scope) return { ...base, table: inp.table ?? null, column: inp.column ?? null, ...scope };
  const hits = await ctx.values.searchAll(ctx.exec, inp.query, { ...scope, k });
  const inScope = columns.filter(
    (c) => (!scope.table || c.table === scope.table) && (!scope.column || c.column === scope.column),
  );
  const datesInSql = isDateLike(inp.query.trim())
    ? inScope.filter((c) => c.dates > 0).map(({ table, column }) => ({ table, column }))
    : [];
  // Columns the database searches itself hold nothing here: asked on every search, their values
  // as asked lead, the rest follow the index's.
  const byEngine = engineSearchable(inp.query) ? inScope.filter((c) => c.searchedBy).slice(0, ENGINE_COLUMNS) : [];
  const searchedInDatabase = byEngine.map(({ table, column }) => ({ table, column }));
  let countedUpTo: ColumnRef[] = [];
  let sampledInDatabase: ValueSearchResult['sampledInDatabase'] = [];
  if (byEngine.length) {
    const found = await searchByEngine(ctx.exec, byEngine, inp.query, k);
    countedUpTo = found.capped;
    sampledInDatabase = found.sampled;
    // Both lists are best first; merged by how each value matches, the index's first on a tie.
    const merged = [...hits, ...found.hits]
      .map((h, order) => ({ h, order }))
      .sort((a, b) => MATCH_RANK[a.h.match] - MATCH_RANK[b.h.match] || a.order - b.order)
      .map(({ h }) => h);
    hits.splice(0, hits.length, ...merged.slice(0, k));
  }
  const partlyIndexed = inScope.flatMap((c) =>
    c.notIndexed === undefined ? [] : [{ table: c.table, column: c.column, rows: c.notIndexed, searched: 0 }],
  );
  // Rows whose values the budget left out are searched in SQL (a bounded number per column)
  // when the index did not find the value as asked: first the columns its near hits are in.
  const asked = inp.query.trim();
  if (asked.length >= 2 && !hits.some((h) => AS_ASKED.has(h.match))) {
    const partial = inScope.filter((c) => c.notIndexedFrom);
    const near = (c: ColumnValueSummary) => (hits.some((h) => h.table === c.table && h.column === c.column) ? 0 : 1);
    const like: ValueHit[] = [];
    for (const c of [...partial].sort((a, b) => near(a) - near(b)).slice(0, LIKE_COLUMNS)) {
      const found = await likeSearch(ctx.exec, c, asked, k);
      like.push(...found.hits);
      const entry = partlyIndexed.find((p) => p.table === c.table && p.column === c.column);
      if (entry) entry.searched = found.searched;
    }
    // A value equal to the query but for case leads; other LIKE hits follow the index's.
    const equal = (h: ValueHit) => h.value.toLowerCase() === asked.toLowerCase();
    const merged = [...like.filter(equal), ...hits, ...like.filter((h) => !equal(h))];
    hits.splice(0, hits.length, ...merged.slice(0, k));
  }
  const stored =
    hits.length === 0 && scope.column && datesInSql.length === 0
      ? inScope
          .filter((c) => !c.searchedBy)
          .slice(0, STORED_COLUMNS)
          .map((c) => storedIn(ctx.values, c))
      : [];
  return {
    ...base,
    table: scope.table ?? null,
    column: scope.column ?? null,
    hits,
    datesInSql,
    ...(partlyIndexed.length ? { partlyIndexed } : {}),
    ...(searchedInDatabase.length ? { searchedInDatabase } : {}),
    ...(countedUpTo.length ? { countedUpTo } : {}),
    ...(sampledInDatabase.length ? { sampledInDatabase } : {}),
    stored,
    problem: null,
    suggestions: [],
  };
}

function storedIn(index: ValueIndex, c: ColumnValueSummary): StoredColumn {
  const few = c.values <= FEW_VALUES && c.texts === 0;
  const values = index.topValues(c.table, c.column, few ? FEW_VALUES : FREQUENT_VALUES) ?? [];
  return { table: c.table, column: c.column, distinct: c.values, texts: c.texts, dates: c.dates, values };
}

// Identifiers as SQL would write them, with control characters escaped so a name cannot start a
// new line of the observation; values are data, always inside a JSON string.
const safe = escapeControls;
// The query is the model's own text, not the database's: quoted, but not marked as a cell value.
const asked = (q: string) => jsonData(q.length > VALUE_CHARS ? q.slice(0, VALUE_CHARS) + '…' : q);
const ref = (table: string, column: string) => `${promptIdent(table)}.${promptIdent(column)}`;

function observe(out: ValueSearchResult): string {
  if (out.problem) {
    const hint =
      out.suggestions.length > 0
        ? ` Close names: ${out.suggestions.map((s) => safe(s)).join(', ')}.`
        : ' Search again without table and column.';
    return safe(out.problem) + hint;
  }
  const scope =
    out.table && out.column
      ? ` in ${ref(out.table, out.column)}`
      : out.table
        ? ` in table ${promptIdent(out.table)}`
        : out.column
          ? ` in columns named ${promptIdent(out.column)}`
          : '';
  const lines =
    out.hits.length === 0
      ? [
          `No values match ${asked(out.query)}${scope}.` +
            (out.column || out.datesInSql.length > 0 ? '' : ' Give "column" to see the values a column holds.'),
          ...out.stored.flatMap(describeStored),
        ]
      : [
          `Values matching ${asked(out.query)}${scope}, best first:`,
          ...out.hits.map(
            (h) =>
              `${quoteData(h.value, VALUE_CHARS)} in ${ref(h.table, h.column)} (${h.rows} row${h.rows === 1 ? '' : 's'}${MATCH_NOTE[h.match]})`,
          ),
        ];
  const missed = out.hits.length === 0 ? (out.searchedInDatabase ?? []) : [];
  if (missed.length)
    lines.push(
      `${missed.map((c) => ref(c.table, c.column)).join(', ')} ${missed.length === 1 ? 'was' : 'were'} searched in the database for values containing it (any case), not for other spellings: try a shorter part of the value.`,
    );
  for (const c of out.countedUpTo ?? [])
    lines.push(
      `More than ${MATCHED_ROWS} rows of ${ref(c.table, c.column)} match: its counts above are of the first ${MATCHED_ROWS} the database found.`,
    );
  for (const c of out.sampledInDatabase ?? [])
    lines.push(
      `Many rows of ${ref(c.table, c.column)} match: its values and counts above are of a sample of about ${c.sampleRows} of its ${c.rows} rows; a rarer value may be stored too (check in SQL).`,
    );
  for (const c of out.partlyIndexed ?? [])
    lines.push(
      `${c.rows} rows of ${ref(c.table, c.column)} hold values that are not indexed (the index's memory budget)` +
        (c.searched > 0 ? `; up to ${c.searched} rows from the first of them on were searched with LIKE` : '') +
        ': a value not listed may still be stored; check in SQL (LIKE).',
    );
  if (out.datesInSql.length > 0) {
    lines.push(
      `Dates and times are not indexed by spelling: compare ${out.datesInSql.map((c) => ref(c.table, c.column)).join(', ')} in SQL (=, BETWEEN, LIKE '2019-03%').`,
    );
  }
  return lines.join('\n');
}

const rowsOf = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/** What a column holds, in one line (none for a column holding only long texts). */
function describeStored(c: StoredColumn): string[] {
  const where = ref(c.table, c.column);
  const list = c.values.map((v) => `${quoteData(v.value, STORED_CHARS)} (${rowsOf(v.rows)})`).join(', ');
  if (c.distinct === 0)
    return c.dates > 0 && c.texts === 0 ? [`${where} holds dates and times only: compare them in SQL.`] : [];
  if (c.values.length === c.distinct && c.texts === 0) {
    const these = c.distinct === 1 ? 'only this value' : `only these ${c.distinct} values`;
    return [`${where} holds ${these}${c.dates > 0 ? ' besides dates and times' : ''}: ${list}.`];
  }
  return [`${where} holds ${c.distinct} values; the most frequent: ${list}.`];
}

/** How each hit matches, in words the model reads (nothing for a value exactly as asked). */
const MATCH_NOTE: Record<ValueHit['match'], string> = {
  exact: '',
  case: '; differs only in case, accents or spaces: use it as stored',
  compact: '; the same letters, spaced differently: use it as stored',
  prefix: '; starts with it',
  word: '; contains the words',
  fuzzy: '; close spelling',
  text: '; the words are in this text',
  like: '; contains it, found in the rows not indexed',
  contains: '; contains it',
};

export const searchValueTool: Tool<SearchValueInput, ValueSearchResult, SearchValueContext> = {
  name: 'search_value',
  description:
    'Stored values close to a word or phrase (typos, case, accents and prefixes are fine), with their table.column and row count; use them exactly as returned.',
  input,
  when: 'search_value for each value the question names',
  contextOf: ({ values, exec }) => ({ values, exec }),
  run,
  observe,
  face: {
    command: 'search-value',
    label: 'Search values',
    hint: 'A value as it might appear in the data (typos are fine).',
    fields: [
      { name: 'query', label: 'Value', placeholder: 'e.g. Pairs', kind: 'text', required: true, positional: true },
      {
        name: 'table',
        label: 'Table (optional)',
        placeholder: 'table',
        kind: 'text',
        required: false,
        positional: false,
        narrow: true,
      },
      {
        name: 'column',
        label: 'Column (optional)',
        placeholder: 'column',
        kind: 'text',
        required: false,
        positional: false,
        narrow: true,
      },
      HOW_MANY_FIELD,
    ],
  },
};
