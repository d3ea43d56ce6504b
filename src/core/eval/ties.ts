// Ties at a reference's LIMIT. `ORDER BY count(*) DESC LIMIT 1` keeps one of the rows tied at the
// cut, and which one is the engine's choice: asked on PostgreSQL and scored against the SQLite
// file's reference (issue 36), the same SQL can keep another tied row and score 0. Spider's rule
// stays as it is (EX); this says, apart, when a wrong answer holds the reference's rows before the
// cut and, for the rest, rows tied with the reference's last one — a different engine's pick, not
// a different answer. It runs the reference again without its LIMIT, its ORDER BY keys selected
// beside its columns, to see the ties.

import { topLevelWords } from '../sql/clauses';
import { tokenize, type Token } from '../sql/tokens';
import { spiderResultEq } from './exec-match';
import { rowKey, type PyRow } from './py-values';

export interface TieProbe {
  /** The reference without its LIMIT, the ORDER BY keys added after its own columns. */
  sql: string;
  keys: number;
  limit: number;
}

const STOP = new Set(['union', 'intersect', 'except', 'offset']);
/** Combinations of tied rows compared at most (LIMIT 1 needs one per tied row). */
const MAX_CHOICES = 500;

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
 * Whether `pred` is the reference's answer with other rows tied at its cut: the probe's rows
 * (in the reference's order, `keys` key cells last) before the cut, then tied ones. False when no
 * row is tied with the last one kept (then the LIMIT chose nothing).
 */
export function keepsOtherTiedRows(
  probeRows: readonly PyRow[],
  probe: Pick<TieProbe, 'keys' | 'limit'>,
  pred: readonly PyRow[],
  options: { orderMatters: boolean },
): boolean {
  const { keys, limit } = probe;
  if (probeRows.length <= limit || pred.length !== limit) return false;
  const width = probeRows[0].length - keys;
  const keyOf = (row: PyRow) => rowKey(row.slice(width));
  const cut = keyOf(probeRows[limit - 1]);
  if (keyOf(probeRows[limit]) !== cut) return false;
  const firstTied = probeRows.findIndex((r) => keyOf(r) === cut);
  const before = probeRows.slice(0, firstTied).map((r) => r.slice(0, width));
  const tied = probeRows.filter((r) => keyOf(r) === cut).map((r) => r.slice(0, width));
  const need = limit - before.length;
  if (!spiderResultEq(before, pred.slice(0, before.length) as PyRow[], options)) return false;
  const rest = pred.slice(before.length) as PyRow[];
  // Tied rows come in any order: the rest is compared as a bag with each choice of them.
  let tried = 0;
  for (const choice of choices(tied.length, need)) {
    if (++tried > MAX_CHOICES) return false;
    if (
      spiderResultEq(
        choice.map((i) => tied[i]),
        rest,
        { orderMatters: false },
      )
    )
      return true;
  }
  return false;
}

/** Every way to pick `k` of `n` positions, in order. */
function* choices(n: number, k: number, from = 0, picked: number[] = []): Generator<number[]> {
  if (picked.length === k) {
    yield picked;
    return;
  }
  for (let i = from; i <= n - (k - picked.length); i++) yield* choices(n, k, i + 1, [...picked, i]);
}
