// search_value: finds cell values close to what the question says ("Pairs", "jhon smith",
// "cafe"), so the model writes WHERE city = 'Paris' with the spelling the database uses. The
// value index answers first; columns whose values are not all indexed (sampled, unique-looking,
// long text) are also searched with LIKE, and the observation says which ones.

import { z } from 'zod';
import type { SqlExecutor } from '../executor';
import { escapeControls, promptIdent } from '../prompt/schema-text';
import { closestNames } from '../text/edit-distance';
import type { ColumnRef, DistinctColumnValues, ValueHit } from '../retrieval/types';
import { likeFallbackSearch, likeTargets, type ValueIndex } from '../retrieval/value-index';
import { quoteData } from './quote-data';
import type { Tool } from './types';

export interface SearchValueInput {
  query: string;
  table?: string;
  column?: string;
  k?: number;
}

export interface SearchValueContext {
  values: ValueIndex;
  exec: SqlExecutor;
  /** Every text column with its policy (from extractDistinctValues), indexed or not. */
  columns: DistinctColumnValues[];
}

export interface ValueSearchResult {
  query: string;
  /** Scope as resolved to the database's spelling; null when not given. */
  table: string | null;
  column: string | null;
  hits: ValueHit[];
  /** Columns also searched with LIKE because their values are not all in the index. */
  likeSearched: ColumnRef[];
  /** Fallback columns in scope not searched: beyond the LIKE bound, or because a value matched exactly. */
  likeSkipped: number;
  /** True when LIKE was skipped because the index found the query exactly (a LIKE scan costs a table scan). */
  exactFound: boolean;
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
function resolveScope(columns: readonly DistinctColumnValues[], tableArg?: string, columnArg?: string): Scope {
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

const key = (h: ValueHit) => `${h.table}\u0000${h.column}\u0000${h.value}`;

async function run(inp: SearchValueInput, ctx: SearchValueContext, signal?: AbortSignal): Promise<ValueSearchResult> {
  const k = inp.k ?? DEFAULT_SEARCH_VALUE_K;
  const scope = resolveScope(ctx.columns, inp.table, inp.column);
  const base = { query: inp.query, hits: [], likeSearched: [], likeSkipped: 0, exactFound: false };
  if ('problem' in scope) return { ...base, table: inp.table ?? null, column: inp.column ?? null, ...scope };

  const indexed = ctx.values.search(inp.query, { ...scope, k });
  // LIKE scans whole tables: skip it when the index already holds the value exactly, unless a
  // column was named (then the caller wants that column searched whatever else matched).
  const exactFound = !scope.column && indexed.some((h) => h.match === 'exact');
  const likeSearched = exactFound ? [] : likeTargets(ctx.columns, scope);
  const allFallback = ctx.columns.filter(
    (c) =>
      c.policy !== 'all' && (!scope.table || c.table === scope.table) && (!scope.column || c.column === scope.column),
  );
  const like =
    likeSearched.length === 0
      ? []
      : await likeFallbackSearch(ctx.exec, ctx.columns, inp.query, {
          ...scope,
          k,
          signal,
          score: (value, rows) => ctx.values.score(inp.query, value, rows),
        });
  // The index's hit wins when both found the same value (its count covers every row).
  const seen = new Set(indexed.map(key));
  const hits = [...indexed, ...like.filter((h) => !seen.has(key(h)))]
    .sort((a, b) => b.score - a.score || b.rows - a.rows)
    .slice(0, k);
  return {
    ...base,
    table: scope.table ?? null,
    column: scope.column ?? null,
    hits,
    likeSearched,
    exactFound,
    likeSkipped: allFallback.length - likeSearched.length,
    problem: null,
    suggestions: [],
  };
}

// Identifiers as SQL would write them, with control characters escaped so a name cannot start a
// new line of the observation; values are data, always inside a JSON string.
const safe = escapeControls;
const ref = (table: string, column: string) => `${promptIdent(table)}.${promptIdent(column)}`;

function observe(out: ValueSearchResult): string {
  if (out.problem) {
    const hint = out.suggestions.length > 0 ? ` Close names: ${out.suggestions.map((s) => safe(s)).join(', ')}.` : '';
    return safe(out.problem) + hint;
  }
  const scope =
    out.table || out.column
      ? ` in ${out.table ? promptIdent(out.table) : '*'}.${out.column ? promptIdent(out.column) : '*'}`
      : '';
  const lines =
    out.hits.length === 0
      ? [`No values match ${quoteData(out.query, VALUE_CHARS)}${scope}.`]
      : [
          `Values matching ${quoteData(out.query, VALUE_CHARS)}${scope}, best first:`,
          ...out.hits.map(
            (h) =>
              `${quoteData(h.value, VALUE_CHARS)} in ${ref(h.table, h.column)} (${h.rows} row${h.rows === 1 ? '' : 's'}${h.match === 'exact' ? '' : `, ${h.match}`})`,
          ),
        ];
  if (out.likeSearched.length > 0) {
    lines.push(
      `Also searched with LIKE (values not all indexed): ${out.likeSearched.map((c) => ref(c.table, c.column)).join(', ')}.`,
    );
  }
  if (out.likeSkipped > 0) {
    const which = `${out.likeSkipped}${out.likeSearched.length > 0 ? ' more' : ''} column${out.likeSkipped === 1 ? '' : 's'} with values not all indexed`;
    lines.push(
      out.exactFound
        ? `${which} not searched with LIKE, as an exact match was found: give column to search one.`
        : `${which} not searched: give table to reach them.`,
    );
  }
  return lines.join('\n');
}

export const searchValueTool: Tool<SearchValueInput, ValueSearchResult, SearchValueContext> = {
  name: 'search_value',
  description:
    'Stored values close to a word or phrase (typos, case, accents and prefixes are fine), with their table.column and row count; use them exactly as returned.',
  input,
  run,
  observe,
};
