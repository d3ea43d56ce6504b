// Detail that helps repair a failed or empty query (Zhang, Ye et al. 2024: fine-grained error
// information is what makes self-debugging work): close names for unknown tables/columns, the
// tables holding an ambiguous column, and which filter emptied a result.

import type { SqlExecutor } from '../executor';
import { topLevelWhere } from '../sql/where-clause';
import { closestNames } from '../text/edit-distance';
import { tokenize, identName } from '../sql/tokens';
import type { Schema } from '../types';
import type { ValueLookup } from '../retrieval/types';
import { promptIdent } from '../prompt/schema-text';
import { jsonData } from './quote-data';

/** Tables the statement mentions (by name, case-insensitive). */
export function tablesMentioned(sql: string, schema: Schema): string[] {
  const names = new Set(
    tokenize(sql)
      .filter((t) => t.kind === 'word' || t.kind === 'ident')
      .map((t) => identName(t).toLowerCase()),
  );
  return schema.tables.filter((t) => names.has(t.name.toLowerCase())).map((t) => t.name);
}

/** Hints for an SQLite error message, one line each. */
export function errorHints(message: string, sql: string, schema: Schema): string[] {
  const hints: string[] = [];
  const noTable = message.match(/no such table: (?:\w+\.)?(.+)$/m);
  if (noTable) {
    const close = closestNames(
      noTable[1],
      schema.tables.map((t) => t.name),
    );
    hints.push(
      close.length
        ? `Tables with a similar name: ${close.map(promptIdent).join(', ')}.`
        : `Tables: ${schema.tables
            .slice(0, 30)
            .map((t) => promptIdent(t.name))
            .join(', ')}.`,
    );
  }
  const noColumn = message.match(/no such column: (.+)$/m);
  if (noColumn) {
    const wanted = noColumn[1].includes('.') ? noColumn[1].slice(noColumn[1].lastIndexOf('.') + 1) : noColumn[1];
    const inQuery = tablesMentioned(sql, schema);
    const scope = schema.tables.filter((t) => inQuery.length === 0 || inQuery.includes(t.name));
    const candidates = scope.flatMap((t) => t.columns.map((c) => `${promptIdent(t.name)}.${promptIdent(c.name)}`));
    const close = closestNames(
      wanted,
      scope.flatMap((t) => t.columns.map((c) => c.name)),
      5,
    );
    const qualified = candidates.filter((q) =>
      close.some((c) => q.toLowerCase().endsWith('.' + promptIdent(c).toLowerCase())),
    );
    if (qualified.length) hints.push(`Columns with a similar name: ${qualified.slice(0, 6).join(', ')}.`);
    else if (inQuery.length)
      hints.push(`Columns of ${inQuery.map(promptIdent).join(', ')}: ${candidates.slice(0, 30).join(', ')}.`);
  }
  const ambiguous = message.match(/ambiguous column name: (.+)$/m);
  if (ambiguous) {
    const col = ambiguous[1].toLowerCase();
    const inQuery = tablesMentioned(sql, schema);
    const holders = schema.tables
      .filter(
        (t) =>
          (inQuery.length === 0 || inQuery.includes(t.name)) && t.columns.some((c) => c.name.toLowerCase() === col),
      )
      .map((t) => t.name);
    if (holders.length) {
      const col = promptIdent(ambiguous[1]);
      hints.push(
        `Column ${col} is in ${holders.map(promptIdent).join(' and ')}: qualify it, e.g. ${promptIdent(holders[0])}.${col}.`,
      );
    }
  }
  return hints;
}

/** `col = 'text'` or `t.col = 'text'` or `col LIKE 'x'`: the column and literal, for value suggestions. */
function comparedLiteral(predicate: string): { column: string; value: string } | null {
  const toks = tokenize(predicate).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  const op = toks.findIndex((t) => t.text === '=' || t.text.toLowerCase() === 'like');
  if (op < 1 || toks[op + 1]?.kind !== 'string') return null;
  const column = identName(toks[op - 1]);
  const raw = toks[op + 1].text;
  const value = raw.slice(1, -1).replace(/''/g, "'").replace(/%/g, '');
  return value ? { column, value } : null;
}

/**
 * For a query that returned no rows: counts the rows without each top-level filter. A filter
 * whose removal brings rows back is the one that emptied the result; for `col = 'text'` filters
 * the closest values that exist are suggested.
 */
export async function explainEmptyResult(
  exec: SqlExecutor,
  sql: string,
  schema: Schema,
  values?: ValueLookup,
): Promise<string[]> {
  const where = topLevelWhere(sql);
  if (!where) return ['The query has no top-level WHERE filter; the tables or joins themselves give no rows.'];
  const lines: string[] = [];
  for (let i = 0; i < where.predicates.length && i < 8; i++) {
    const predicate = where.predicates[i];
    let count: number | null;
    try {
      const r = await exec.query(`SELECT count(*) FROM (${where.without(i).replace(/;\s*$/, '')})`, { maxRows: 1 });
      count = Number(r.rows[0]?.[0] ?? 0);
    } catch {
      count = null;
    }
    if (count === null || count === 0) continue;
    let line = `Without the filter \`${predicate}\` the query returns ${count} row${count === 1 ? '' : 's'}.`;
    const lit = comparedLiteral(predicate);
    if (lit && values) {
      const inQuery = tablesMentioned(sql, schema);
      const hits = values
        .search(lit.value, { k: 3, column: lit.column })
        .filter((h) => inQuery.length === 0 || inQuery.includes(h.table));
      if (hits.length)
        line += ` Values that exist: ${hits.map((h) => `${jsonData(h.value)} in ${promptIdent(h.table)}.${promptIdent(h.column)}`).join(', ')}.`;
    }
    lines.push(line);
  }
  if (lines.length === 0)
    lines.push(
      `Each filter alone is not the cause: removing any one of ${where.predicates.length} filters still gives no rows (they exclude each other, or the joins give no rows).`,
    );
  return lines;
}
