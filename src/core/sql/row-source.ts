// The rows a plain SELECT reads before it groups or aggregates: its FROM clause (joins included)
// and its top-level WHERE. `SELECT count(*) … ` over a join that matches nothing returns one row,
// 0, so "no rows" never shows; looking at the row source finds the join or filter that emptied
// it. Lexer-based and conservative: anything that is not one plain SELECT gives null.

import { tokenize, type Token } from './tokens';

export interface RowSource {
  /** `SELECT 1 FROM … [WHERE …]`: the rows before grouping and aggregates. */
  sql: string;
  /** The FROM clause, then after each JOIN the clause up to it: `FROM a`, `FROM a JOIN b ON …`, … */
  joinPrefixes: string[];
  /** The text of each table or join of the FROM clause, in order (`a`, `JOIN b ON …`). */
  joins: string[];
}

const END_OF_FROM = new Set(['where', 'group', 'order', 'limit', 'having', 'window']);
const COMPOUND = new Set(['union', 'intersect', 'except']);
const JOIN_WORDS = new Set(['join', 'left', 'right', 'full', 'inner', 'cross', 'natural', 'outer']);

export function rowSource(sql: string): RowSource | null {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'comment');
  const words = (i: number) => (tokens[i]?.kind === 'word' ? tokens[i].text.toLowerCase() : '');
  const first = tokens.findIndex((t) => t.kind !== 'space');
  if (words(first) !== 'select') return null;
  let depth = 0;
  let fromAt = -1;
  let fromEnd = -1;
  let whereAt = -1;
  let whereEnd = tokens.length;
  const joinStarts: number[] = [];
  for (let i = first + 1; i < tokens.length; i++) {
    const t: Token = tokens[i];
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    if (depth !== 0) continue;
    const w = words(i);
    if (COMPOUND.has(w) || t.text === ';') {
      if (COMPOUND.has(w)) return null;
      if (whereAt >= 0) whereEnd = Math.min(whereEnd, i);
      if (fromEnd < 0 && fromAt >= 0) fromEnd = i;
      break;
    }
    if (w === 'from' && fromAt < 0) fromAt = i;
    else if (fromAt >= 0 && fromEnd < 0) {
      if (END_OF_FROM.has(w)) {
        fromEnd = i;
        if (w === 'where') whereAt = i;
      } else if (JOIN_WORDS.has(w) && !JOIN_WORDS.has(words(prevWord(tokens, i)))) joinStarts.push(i);
      else if (t.text === ',') joinStarts.push(i);
    } else if (whereAt >= 0 && END_OF_FROM.has(w) && w !== 'where') {
      whereEnd = i;
      break;
    }
  }
  if (fromAt < 0) return null;
  if (fromEnd < 0) fromEnd = tokens.length;
  const text = (a: number, b: number) => (a < b ? sql.slice(tokens[a].start, tokens[b - 1].end).trim() : '');
  const from = text(fromAt, fromEnd);
  const where = whereAt >= 0 ? text(whereAt, whereEnd).replace(/;\s*$/, '') : '';
  const bounds = [fromAt + 1, ...joinStarts, fromEnd];
  const joins = bounds.slice(0, -1).map((b, k) => text(b, bounds[k + 1]));
  const joinPrefixes = bounds.slice(1).map((b) => text(fromAt, b));
  return { sql: `SELECT 1 ${from}${where ? ` ${where}` : ''}`, joinPrefixes, joins };
}

function prevWord(tokens: Token[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (tokens[j].kind !== 'space') return j;
  return -1;
}

const AGGREGATE = /\b(count|sum|avg|total|min|max|group_concat)\s*\(/i;

/** A statement whose result is one row of aggregates without GROUP BY (it cannot be "no rows"). */
export function isPlainAggregate(sql: string): boolean {
  const tokens = tokenize(sql).filter((t) => t.kind === 'word' || t.text === '(' || t.text === ')');
  let depth = 0;
  for (const t of tokens) {
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.text.toLowerCase() === 'group') return false;
  }
  return AGGREGATE.test(sql);
}
