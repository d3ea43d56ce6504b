// A capped result sorted or filtered in the grid shows only the rows it holds. This writes the
// same view as SQL around the statement, so the database sorts and filters every row.

import { quoteIdent, quoteLiteral } from '../sql/quote';
import type { ColumnFilter, RowViewOptions } from './row-view';
import { isActive } from './row-view';

/** A finite number as SQL text (a filter's bound is typed by the person). */
const literalNumber = (n: number) => {
  if (!Number.isFinite(n)) throw new Error(`Not a finite number: ${n}`);
  return String(n);
};

/** LIKE's own wildcards in the person's text are matched literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function condition(column: string, f: ColumnFilter): string | null {
  const name = quoteIdent(column);
  if (f.kind === 'text') return `CAST(${name} AS TEXT) LIKE ${quoteLiteral(likePattern(f.contains))} ESCAPE '\\'`;
  // Numbers stored as text count as numbers, as in the grid (a text column compares as text).
  const number = `CAST(${name} AS REAL)`;
  const parts = [`(typeof(${name}) IN ('integer', 'real') OR (typeof(${name}) = 'text' AND ${name} GLOB '*[0-9]*'))`];
  const [above, below] = f.exclusive ? ['>', '<'] : ['>=', '<='];
  if (f.min !== undefined) parts.push(`${number} ${above} ${literalNumber(f.min)}`);
  if (f.max !== undefined) parts.push(`${number} ${below} ${literalNumber(f.max)}`);
  return parts.length > 1 ? parts.join(' AND ') : null;
}

/**
 * The statement wrapped so SQLite applies the grid's sort and filters to all its rows, or null
 * when a filter names a column the result holds twice (the outer query could not tell which).
 * The quick filter becomes a condition over every column. Sorting uses the column's position.
 */
export function sqlWithView(sql: string, columns: readonly string[], view: RowViewOptions): string | null {
  const inner = stripTrailing(sql);
  const where: string[] = [];
  const duplicated = (c: string) => columns.filter((x) => x === c).length > 1;
  for (const [index, f] of view.filters ?? []) {
    if (!isActive(f)) continue;
    if (duplicated(columns[index])) return null;
    const c = condition(columns[index], f);
    if (c) where.push(c);
  }
  const quick = (view.quick ?? '').trim();
  if (quick) {
    if (columns.some(duplicated)) return null;
    where.push(`(${columns.map((c) => condition(c, { kind: 'text', contains: quick })).join(' OR ')})`);
  }
  // NULLs last in both directions, as in the grid (text in the database's own order).
  const order = view.sort ? ` ORDER BY ${view.sort.column + 1} ${view.sort.direction.toUpperCase()} NULLS LAST` : '';
  // The newline keeps a trailing line comment in the statement from swallowing the parenthesis.
  return `SELECT * FROM (\n${inner}\n)${where.length ? ` WHERE ${where.join(' AND ')}` : ''}${order}`;
}

/** Trailing semicolons and whitespace go: the statement becomes a subquery. */
function stripTrailing(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}
