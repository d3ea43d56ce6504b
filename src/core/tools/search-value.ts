// search_value: finds cell values close to what the question says ("Pairs", "jhon smith",
// "cafe"), so the model writes WHERE city = 'Paris' with the spelling the database uses. The
// value index holds every text value of the database (long texts by word, read back by rowid),
// so no search scans a table; date/time values are left to SQL, and the observation says so
// when the query is one.

import { z } from 'zod';
import type { SqlExecutor } from '../executor';
import { escapeControls, promptIdent } from '../prompt/schema-text';
import { closestNames } from '../text/edit-distance';
import type { ColumnRef, ColumnValueSummary, ValueHit } from '../retrieval/types';
import type { ValueIndex } from '../retrieval/value-index';
import { isDateLike } from '../retrieval/value-text';
import { jsonData, quoteData } from './quote-data';
import type { Tool } from './types';

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
  /** Set when the scope names no known text column; `suggestions` then holds close names. */
  problem: string | null;
  suggestions: string[];
}

export const DEFAULT_SEARCH_VALUE_K = 5;
const VALUE_CHARS = 80;

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
  const base = { query: inp.query, hits: [], datesInSql: [] };
  if ('problem' in scope) return { ...base, table: inp.table ?? null, column: inp.column ?? null, ...scope };
  const hits = await ctx.values.searchAll(ctx.exec, inp.query, { ...scope, k });
  const datesInSql = isDateLike(inp.query.trim())
    ? columns
        .filter(
          (c) =>
            c.dates > 0 && (!scope.table || c.table === scope.table) && (!scope.column || c.column === scope.column),
        )
        .map(({ table, column }) => ({ table, column }))
    : [];
  return {
    ...base,
    table: scope.table ?? null,
    column: scope.column ?? null,
    hits,
    datesInSql,
    problem: null,
    suggestions: [],
  };
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
      ? [`No values match ${asked(out.query)}${scope}.`]
      : [
          `Values matching ${asked(out.query)}${scope}, best first:`,
          ...out.hits.map(
            (h) =>
              `${quoteData(h.value, VALUE_CHARS)} in ${ref(h.table, h.column)} (${h.rows} row${h.rows === 1 ? '' : 's'}${MATCH_NOTE[h.match]})`,
          ),
        ];
  if (out.datesInSql.length > 0) {
    lines.push(
      `Dates and times are not indexed by spelling: compare ${out.datesInSql.map((c) => ref(c.table, c.column)).join(', ')} in SQL (=, BETWEEN, LIKE '2019-03%').`,
    );
  }
  return lines.join('\n');
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
};

export const searchValueTool: Tool<SearchValueInput, ValueSearchResult, SearchValueContext> = {
  name: 'search_value',
  description:
    'Stored values close to a word or phrase (typos, case, accents and prefixes are fine), with their table.column and row count; use them exactly as returned.',
  input,
  run,
  observe,
};
