// Finds the top-level WHERE of a SELECT and its AND-ed predicates, so an empty result can be
// explained by dropping one predicate at a time. Lexer-based: predicates inside subqueries,
// parentheses, CASE and BETWEEN … AND … stay whole.

import { tokenize, type Token } from './tokens';

export interface WherePredicates {
  /** Text of each top-level conjunct. */
  predicates: string[];
  /** The SQL without predicate i (the WHERE keyword dropped when none is left). */
  without(i: number): string;
}

const CLAUSE_END = new Set([
  'group',
  'order',
  'limit',
  'having',
  'window',
  'union',
  'intersect',
  'except',
  'returning',
]);

export function topLevelWhere(sql: string): WherePredicates | null {
  const tokens = tokenize(sql);
  let depth = 0;
  let whereAt = -1;
  let end = tokens.length;
  let caseDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    if (depth !== 0 || t.kind !== 'word') continue;
    const w = t.text.toLowerCase();
    if (w === 'where' && whereAt === -1) whereAt = i;
    else if (whereAt !== -1 && (CLAUSE_END.has(w) || w === ';')) {
      end = i;
      break;
    }
    if (w === 'case') caseDepth++;
    if (w === 'end' && caseDepth > 0) caseDepth--;
  }
  if (whereAt === -1) return null;
  // Trailing semicolon is not part of the clause.
  while (
    end > whereAt + 1 &&
    (tokens[end - 1].kind === 'space' || tokens[end - 1].kind === 'comment' || tokens[end - 1].text === ';')
  )
    end--;

  const parts: Array<{ from: number; to: number }> = [];
  let start = whereAt + 1;
  depth = 0;
  let betweenPending = false;
  caseDepth = 0;
  for (let i = whereAt + 1; i < end; i++) {
    const t: Token = tokens[i];
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    if (depth !== 0 || t.kind !== 'word') continue;
    const w = t.text.toLowerCase();
    if (w === 'case') caseDepth++;
    else if (w === 'end' && caseDepth > 0) caseDepth--;
    else if (w === 'between') betweenPending = true;
    else if (w === 'and' && caseDepth === 0) {
      if (betweenPending) {
        betweenPending = false;
        continue;
      }
      parts.push({ from: start, to: i });
      start = i + 1;
    } else if (w === 'or' && caseDepth === 0) {
      // A top-level OR makes the conjuncts meaningless: treat the whole clause as one predicate.
      return single(sql, tokens, whereAt, end);
    }
  }
  parts.push({ from: start, to: end });
  const text = (p: { from: number; to: number }) =>
    tokens
      .slice(p.from, p.to)
      .map((t) => t.text)
      .join('')
      .trim();
  const predicates = parts.map(text);
  const head = tokens
    .slice(0, whereAt)
    .map((t) => t.text)
    .join('');
  const tail = tokens
    .slice(end)
    .map((t) => t.text)
    .join('');
  return {
    predicates,
    without(i) {
      const kept = predicates.filter((_, j) => j !== i);
      return kept.length ? glue(head, `WHERE ${kept.join(' AND ')}`, tail) : glue(head, tail);
    },
  };
}

function single(_sql: string, tokens: Token[], whereAt: number, end: number): WherePredicates {
  const head = tokens
    .slice(0, whereAt)
    .map((t) => t.text)
    .join('');
  const tail = tokens
    .slice(end)
    .map((t) => t.text)
    .join('');
  const predicate = tokens
    .slice(whereAt + 1, end)
    .map((t) => t.text)
    .join('')
    .trim();
  return { predicates: [predicate], without: () => glue(head, tail) };
}

/** Joins SQL pieces with single spaces, none before a closing `;`. */
function glue(...pieces: string[]): string {
  return pieces
    .map((p) => p.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\s+;$/, ';');
}
