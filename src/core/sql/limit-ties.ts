// Rows tied at a LIMIT. `ORDER BY count(*) DESC LIMIT 1` keeps one of the rows tied at the cut,
// and which one is the engine's choice. The probe runs the query again without its LIMIT, its
// ORDER BY keys selected beside its columns: the scorer reads reference ties from it
// (eval/ties.ts), and an answer says when its LIMIT cut among equal values (agent/limit-tie-note.ts).

import { topLevelWords } from './clauses';
import { tokenize, type Token } from './tokens';

export interface TieProbe {
  /** The reference without its LIMIT, the ORDER BY keys added after its own columns. */
  sql: string;
  keys: number;
  limit: number;
  /** The query without its LIMIT, its ORDER BY clause, and its keys as written (an alias among them). */
  base: string;
  orderBy: string;
  keyTexts: string[];
}

const STOP = new Set(['union', 'intersect', 'except', 'offset']);

const text = (tokens: readonly Token[]) => tokens.map((t) => t.text).join('');

/**
 * The probe for a plain `SELECT … ORDER BY … LIMIT n` (no compound, OFFSET or positional key),
 * or null when the reference is not one.
 */
export function tieProbe(sql: string): TieProbe | null {
  const tokens = tokenize(sql.replace(/;\s*$/, '')).filter((t) => t.kind !== 'comment');
  let from = -1;
  let order = -1;
  let limit = -1;
  const words = topLevelWords(tokens);
  if (words[0]?.word !== 'select' || tokens.findIndex((t) => t.kind !== 'space') !== words[0].at) return null;
  for (const { word, at } of words) {
    if (STOP.has(word)) return null;
    if (word === 'from' && from < 0) from = at;
    else if (word === 'order') order = at;
    else if (word === 'limit') limit = at;
  }
  if (from < 0 || order < from || limit < order) return null;
  const count = text(tokens.slice(limit + 1)).trim();
  if (!/^\d+$/.test(count) || Number(count) < 1) return null;
  const keys = splitTopLevel(tokens.slice(order + 1, limit))
    .map((k) =>
      k
        .replace(/^\s*by\s+/i, '')
        .replace(/\s+nulls\s+(first|last)\s*$/i, '')
        .replace(/\s+(asc|desc)\s*$/i, '')
        .trim(),
    )
    .filter(Boolean);
  if (keys.length === 0 || keys.some((k) => /^\d+$/.test(k))) return null;
  return {
    sql: `${text(tokens.slice(0, from)).trimEnd()}, ${keys.join(', ')} ${text(tokens.slice(from, limit)).trim()}`,
    keys: keys.length,
    limit: Number(count),
    base: text(tokens.slice(0, limit)).trim(),
    orderBy: text(tokens.slice(order, limit)).trim(),
    keyTexts: keys,
  };
}

function splitTopLevel(tokens: readonly Token[]): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  tokens.forEach((t, i) => {
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (t.text === ',' && depth === 0) {
      parts.push(text(tokens.slice(start, i)));
      start = i + 1;
    }
  });
  parts.push(text(tokens.slice(start)));
  return parts;
}

/**
 * The probe as an answer runs it: one row past the LIMIT, enough to see whether the row after the
 * cut ties with the last one kept.
 */
export function tieProbeSql(probe: TieProbe): string {
  return `${probe.sql} LIMIT ${probe.limit + 1}`;
}

/**
 * The same for keys the select list cannot name (`ORDER BY n` where n is an alias of the select
 * list): the query as a subquery, its keys read from its result columns.
 */
export function tieProbeByAliasSql(probe: TieProbe): string {
  // Ordered again outside: a subquery's order is not promised to survive (on a server it may not).
  // The keys under names of their own, so the outer ORDER BY names each output column once.
  const keys = probe.keyTexts.map((k, i) => `${k} AS dowser_tie_key_${i + 1}`).join(', ');
  return `SELECT *, ${keys} FROM (${probe.base}) AS probe ${probe.orderBy} LIMIT ${probe.limit + 1}`;
}

/**
 * Whether the LIMIT cut among equal ORDER BY values: the probe's row after the cut has the same
 * keys (its last `keys` cells) as the last row kept. Keys compare as stored (1 and 1.0 alike).
 */
export function tiedAtCut(rows: readonly (readonly unknown[])[], probe: Pick<TieProbe, 'keys' | 'limit'>): boolean {
  if (rows.length <= probe.limit) return false;
  const keyOf = (row: readonly unknown[]) =>
    JSON.stringify(row.slice(row.length - probe.keys).map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  return keyOf(rows[probe.limit - 1]) === keyOf(rows[probe.limit]);
}
