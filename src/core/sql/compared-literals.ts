// The text literals a query compares a column with — `status = 'delivered'`, `'FR' = c.code`,
// `type IN ('cat', 'dog')`, `name != 'x'` — with the column as written (qualifier and name), so a
// caller can check that each value is stored as written. LIKE patterns, expressions
// (`lower(name) = 'x'`) and other comparisons are left out: their values are not meant verbatim.
// Read from tokens, not parsed: a query that does not parse still names its literals.

import type { Schema } from '../types';
import { identName, significant, tokenize, type Token } from './tokens';

export interface ComparedLiteral {
  /** The table or alias before the dot, when written. */
  qualifier: string | null;
  column: string;
  value: string;
  /** `COLLATE NOCASE` follows: case does not matter to the comparison. */
  noCase: boolean;
}

const isName = (t: Token | undefined): t is Token => !!t && (t.kind === 'word' || t.kind === 'ident');
const isText = (t: Token | undefined): t is Token => !!t && t.kind === 'string' && !/^x'/i.test(t.text);
const unquote = (t: Token) => t.text.slice(1, -1).replace(/''/g, "'");
const is = (t: Token | undefined, text: string) => !!t && t.text.toUpperCase() === text;

// Words that end an expression rather than name a column (`… THEN 'x'`, `ELSE 'y'`).
const NOT_COLUMNS = new Set([
  'AND',
  'OR',
  'NOT',
  'THEN',
  'ELSE',
  'WHEN',
  'CASE',
  'SELECT',
  'WHERE',
  'ON',
  'HAVING',
  'IS',
  'BY',
  'END',
  'AS',
]);

/** `col` or `t.col` ending at index `end` (inclusive), or null. */
function columnAt(ts: Token[], end: number): { qualifier: string | null; column: string } | null {
  const t = ts[end];
  if (!isName(t) || (t.kind === 'word' && NOT_COLUMNS.has(t.text.toUpperCase()))) return null;
  if (ts[end - 1]?.text === '.' && isName(ts[end - 2]))
    return { qualifier: identName(ts[end - 2]), column: identName(t) };
  return { qualifier: null, column: identName(t) };
}

/** `col` or `t.col` starting at index `start`, or null (a function call or anything else). */
function columnFrom(ts: Token[], start: number): { qualifier: string | null; column: string } | null {
  if (!isName(ts[start]) || ts[start + 1]?.text === '(') return null;
  if (ts[start + 1]?.text === '.' && isName(ts[start + 2]) && ts[start + 3]?.text !== '(')
    return { qualifier: identName(ts[start]), column: identName(ts[start + 2]) };
  if (ts[start].kind === 'word' && NOT_COLUMNS.has(ts[start].text.toUpperCase())) return null;
  return { qualifier: null, column: identName(ts[start]) };
}

/** The equality operator ending at `i` (`=`, `==`, `!=`, `<>`), its first index; -1 for none. */
function equalityBefore(ts: Token[], i: number): number {
  const t = ts[i];
  if (t?.text === '=') {
    const p = ts[i - 1]?.text;
    if (p === '<' || p === '>') return -1;
    return p === '=' || p === '!' ? i - 1 : i;
  }
  if (t?.text === '>' && ts[i - 1]?.text === '<') return i - 1;
  return -1;
}

export function comparedLiterals(sql: string): ComparedLiteral[] {
  const ts = significant(tokenize(sql));
  const out: ComparedLiteral[] = [];
  const noCaseAfter = (i: number) => is(ts[i + 1], 'COLLATE') && is(ts[i + 2], 'NOCASE');
  for (let i = 0; i < ts.length; i++) {
    if (!isText(ts[i])) continue;
    const value = unquote(ts[i]);
    // col = 'x'
    const opStart = equalityBefore(ts, i - 1);
    if (opStart >= 0) {
      const col = columnAt(ts, opStart - 1);
      if (col) out.push({ ...col, value, noCase: noCaseAfter(i) });
      continue;
    }
    // 'x' = col
    const next = ts[i + 1]?.text;
    if (next === '=' || (next === '!' && ts[i + 2]?.text === '=') || (next === '<' && ts[i + 2]?.text === '>')) {
      const after = next === '=' ? (ts[i + 2]?.text === '=' ? i + 3 : i + 2) : i + 3;
      const col = columnFrom(ts, after);
      if (col) out.push({ ...col, value, noCase: false });
      continue;
    }
    // col IN ('a', 'b'): walk back over the list to its parenthesis
    let j = i - 1;
    while (j >= 0 && (ts[j].text === ',' || isText(ts[j]))) j--;
    if (ts[j]?.text === '(' && is(ts[j - 1], 'IN')) {
      const before = is(ts[j - 2], 'NOT') ? j - 3 : j - 2;
      const col = columnAt(ts, before);
      if (col) out.push({ ...col, value, noCase: false });
    }
  }
  return out;
}

const FROM_WORDS = new Set(['FROM', 'JOIN']);

/**
 * Table and alias names of the query, lower-cased, to the schema's table: `FROM customers c JOIN
 * orders AS o` gives c and customers -> customers, o and orders -> orders.
 */
export function tableAliases(sql: string, schema: Schema): Map<string, string> {
  const ts = significant(tokenize(sql));
  const tables = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t.name]));
  const out = new Map<string, string>();
  for (let i = 1; i < ts.length; i++) {
    const prev = ts[i - 1].text.toUpperCase();
    if (!isName(ts[i]) || !(FROM_WORDS.has(prev) || prev === ',')) continue;
    const table = tables.get(identName(ts[i]).toLowerCase());
    if (!table) continue;
    out.set(table.toLowerCase(), table);
    const aliasAt = is(ts[i + 1], 'AS') ? i + 2 : i + 1;
    const alias = ts[aliasAt];
    if (
      isName(alias) &&
      !(
        alias.kind === 'word' &&
        /^(WHERE|JOIN|ON|INNER|LEFT|RIGHT|CROSS|NATURAL|FULL|OUTER|GROUP|ORDER|LIMIT|UNION|INTERSECT|EXCEPT|HAVING|USING|WINDOW)$/i.test(
          alias.text,
        )
      )
    )
      out.set(identName(alias).toLowerCase(), table);
  }
  return out;
}

/** The tables of the query that hold a compared literal's column: the one its qualifier names, else any. */
export function literalHolders(lit: ComparedLiteral, aliases: Map<string, string>, schema: Schema): string[] {
  const named = lit.qualifier ? aliases.get(lit.qualifier.toLowerCase()) : undefined;
  return (named ? [named] : [...new Set(aliases.values())]).filter((t) =>
    schema.tables.find((x) => x.name === t)?.columns.some((c) => c.name.toLowerCase() === lit.column.toLowerCase()),
  );
}
