// The top-level clauses of one SELECT, read with the lexer: the text of its GROUP BY, ORDER BY and
// LIMIT (outside parentheses, so a subquery's ORDER BY does not count). Optimize compares results
// in order only when the statement itself orders them; Explain lists the groupings.

import { tokenize, type Token } from './tokens';

export interface TopLevelClauses {
  groupBy: string | null;
  orderBy: string | null;
  limit: string | null;
}

const CLAUSE_WORDS = new Set(['group', 'order', 'limit', 'having', 'window', 'union', 'intersect', 'except']);

/** The words of a statement outside any parentheses, lower-cased, with their index in `tokens`. */
export function topLevelWords(tokens: readonly Token[]): Array<{ word: string; at: number }> {
  const out: Array<{ word: string; at: number }> = [];
  let depth = 0;
  tokens.forEach((t, at) => {
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.kind === 'word') out.push({ word: t.text.toLowerCase(), at });
  });
  return out;
}

export function topLevelClauses(sql: string): TopLevelClauses {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'comment');
  const starts = topLevelWords(tokens).filter((w) => CLAUSE_WORDS.has(w.word));
  const clause = (word: string): string | null => {
    // The last one: in a compound SELECT only the final ORDER BY / LIMIT applies to the whole.
    const k = starts.map((s) => s.word).lastIndexOf(word);
    if (k < 0) return null;
    const end = starts[k + 1]?.at ?? tokens.length;
    const text = tokens
      .slice(starts[k].at, end)
      .map((t) => t.text)
      .join('')
      .replace(/;\s*$/, '')
      .trim();
    return text.replace(/^(group|order)\s+by\s+/i, '').replace(/^limit\s+/i, '') || null;
  };
  return { groupBy: clause('group'), orderBy: clause('order'), limit: clause('limit') };
}
