// Detail that helps repair a failed or empty query (Zhang, Ye et al. 2024: fine-grained error
// information is what makes self-debugging work): close names for unknown tables/columns, the
// tables holding an ambiguous column, and which filter emptied a result. An empty result or a
// zero is often the right answer: that comes first, and the filter counts are facts for checking
// the values compared with ("Without the filter … returns 6 rows" once made a small model drop a
// filter whose answer was 0), never advice to drop one.

import type { SqlExecutor } from '../executor';
import { isPlainAggregate, rowSource } from '../sql/row-source';
import { topLevelWhere } from '../sql/where-clause';
import { quoteData, valueData } from './quote-data';
import { closestNames } from '../text/normalize';
import { tokenize, identName } from '../sql/tokens';
import type { Schema } from '../types';
import type { JoinEdge, ValueLookup } from '../retrieval/types';
import { promptIdent } from '../prompt/schema-text';
import { quoteIdent } from '../sql/quote';

/** Tables the statement mentions (by name, case-insensitive). */
export function tablesMentioned(sql: string, schema: Schema): string[] {
  const names = new Set(
    tokenize(sql)
      .filter((t) => t.kind === 'word' || t.kind === 'ident')
      .map((t) => identName(t).toLowerCase()),
  );
  return schema.tables.filter((t) => names.has(t.name.toLowerCase())).map((t) => t.name);
}

/**
 * What a hint may say about a column: its type and a few values (from the toolbox's statistics),
 * and the join keys between tables. A hint names a column only with this evidence, so a model
 * can tell `car_names.Make` (car descriptions) from the `Maker` it wanted (a maker id elsewhere).
 */
export interface ColumnEvidence {
  /** `text, e.g. "chevrolet chevelle malibu", "buick skylark 320"`; null when nothing is known. */
  describe(table: string, column: string): string | null;
  /** The join keys of the database (declared and inferred). */
  keys?: readonly JoinEdge[];
}

const withEvidence = (evidence: ColumnEvidence | undefined, table: string, column: string) => {
  const known = evidence?.describe(table, column);
  return `${promptIdent(table)}.${promptIdent(column)}${known ? ` (${known})` : ''}`;
};

/** How `other` joins one of `tables` by a key, in words; null when no key links them directly. */
function keyBetween(keys: readonly JoinEdge[] | undefined, other: string, tables: string[]): string | null {
  const lower = new Set(tables.map((t) => t.toLowerCase()));
  const o = other.toLowerCase();
  for (const k of keys ?? []) {
    const [a, b] = [k.fromTable.toLowerCase(), k.toTable.toLowerCase()];
    if ((a === o && lower.has(b)) || (b === o && lower.has(a)))
      return `${k.fromColumns.map((c) => `${promptIdent(k.fromTable)}.${promptIdent(c)}`).join(', ')} = ${k.toColumns.map((c) => `${promptIdent(k.toTable)}.${promptIdent(c)}`).join(', ')}`;
  }
  return null;
}

/** Hints for an SQLite error message (or PostgreSQL's words for the same errors), one line each. */
export function errorHints(message: string, sql: string, schema: Schema, evidence?: ColumnEvidence): string[] {
  const hints: string[] = [];
  const noTable =
    message.match(/no such table: (?:\w+\.)?(.+)$/m) ?? message.match(/relation "(?:[^"]+\.)?([^"]+)" does not exist/);
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
  const noColumn =
    message.match(/no such column: (.+)$/m) ??
    message.match(/column "([^"]+)" does not exist/) ??
    message.match(/column (\S+\.\S+) does not exist/);
  if (noColumn) hints.push(...noColumnHints(noColumn[1], sql, schema, evidence));
  const ambiguous =
    message.match(/ambiguous column name: (.+)$/m) ?? message.match(/column reference "([^"]+)" is ambiguous/);
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
      const name = promptIdent(ambiguous[1]);
      hints.push(
        `Column ${name} is in ${holders.map(promptIdent).join(' and ')}: qualify it, e.g. ${promptIdent(holders[0])}.${name}.`,
      );
    }
  }
  // PostgreSQL compares only like types: a key stored as text joined with an integer key fails
  // where SQLite's affinity converted one side.
  const mismatch = message.match(/operator does not exist: ([a-z ]+?) (=|<>|!=|<=|>=|<|>) ([a-z ]+?)(?= \(at line|$)/m);
  if (mismatch && mismatch[1] !== mismatch[3])
    hints.push(
      `One side is ${mismatch[1]} and the other ${mismatch[3]}: cast one to the other's type, e.g. col::${mismatch[3] === 'text' ? mismatch[1] : mismatch[3]} (a join of a key stored as text with a number key needs this).`,
    );
  return hints;
}

/**
 * `no such column: t.Maker`: what the tables of the query do have that is close (with evidence),
 * and which other tables have a column of exactly that name, with the key that reaches them.
 */
function noColumnHints(missing: string, sql: string, schema: Schema, evidence?: ColumnEvidence): string[] {
  const dot = missing.lastIndexOf('.');
  const wanted = dot >= 0 ? missing.slice(dot + 1) : missing;
  const qualifier = dot >= 0 ? missing.slice(0, dot) : null;
  const inQuery = tablesMentioned(sql, schema);
  // t.col where t is a table name: that table is the one the query meant.
  const meant = qualifier
    ? schema.tables.find((t) => t.name.toLowerCase() === qualifier.toLowerCase())?.name
    : undefined;
  const scopeNames = meant ? [meant] : inQuery;
  const scope = schema.tables.filter((t) => scopeNames.length === 0 || scopeNames.includes(t.name));
  const hints: string[] = [];
  const close = closestNames(
    wanted,
    scope.flatMap((t) => t.columns.map((c) => c.name)),
    4,
  );
  const closeRefs = scope.flatMap((t) =>
    t.columns
      .filter((c) => close.some((n) => n.toLowerCase() === c.name.toLowerCase()))
      .map((c) => ({ t: t.name, c: c.name })),
  );
  if (closeRefs.length)
    hints.push(
      `Close names${meant ? ` in ${promptIdent(meant)}` : ''} (check they mean the same thing): ${closeRefs
        .slice(0, 4)
        .map((r) => withEvidence(evidence, r.t, r.c))
        .join('; ')}.`,
    );
  else if (scope.length && scopeNames.length)
    hints.push(
      `Columns of ${scope.map((t) => promptIdent(t.name)).join(', ')}: ${scope
        .flatMap((t) => t.columns.map((c) => `${promptIdent(t.name)}.${promptIdent(c.name)}`))
        .slice(0, 30)
        .join(', ')}.`,
    );
  const elsewhere = schema.tables.filter(
    (t) => !scopeNames.includes(t.name) && t.columns.some((c) => c.name.toLowerCase() === wanted.toLowerCase()),
  );
  for (const t of elsewhere.slice(0, 3)) {
    const col = t.columns.find((c) => c.name.toLowerCase() === wanted.toLowerCase())!.name;
    const key = keyBetween(evidence?.keys, t.name, scopeNames);
    hints.push(
      `Another table has a column named ${promptIdent(wanted)}: ${withEvidence(evidence, t.name, col)}` +
        (key ? `; it joins by ${key}.` : `; find_shortest_path gives the join to ${promptIdent(t.name)}.`),
    );
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

const ORDERING = new Set(['<', '>', '<=', '>=', 'between']);
const DATE_OR_NUMBER = /^'?-?\d{4}(-\d{2}(-\d{2})?)?|^-?\d+(\.\d+)?$/;

/**
 * For a filter on a range (`<`, `>`, BETWEEN, or `=` on a number, year or date, also inside a
 * function such as strftime): what the compared column holds, least to greatest, so an empty
 * answer can say "the data covers 2021 to 2025" rather than guess at a wrong cause.
 */
async function rangeOfCompared(
  exec: SqlExecutor,
  predicate: string,
  sql: string,
  schema: Schema,
): Promise<string | null> {
  const toks = tokenize(predicate).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  const ordering = toks.some((t) => ORDERING.has(t.text.toLowerCase()));
  const equalsDateOrNumber = toks.some(
    (t, i) => t.text === '=' && DATE_OR_NUMBER.test(toks[i + 1]?.text ?? '') && toks[i + 1]?.kind !== 'word',
  );
  if (!ordering && !equalsDateOrNumber) return null;
  const tables = tablesMentioned(sql, schema).flatMap((name) => schema.tables.filter((t) => t.name === name));
  const names = toks.filter((t) => t.kind === 'word' || t.kind === 'ident').map((t) => identName(t).toLowerCase());
  for (const name of names) {
    const owners = tables.filter((t) => t.columns.some((c) => c.name.toLowerCase() === name));
    if (owners.length !== 1) continue;
    const table = owners[0];
    const column = table.columns.find((c) => c.name.toLowerCase() === name)!.name;
    try {
      const q = `SELECT min(${quoteIdent(column)}), max(${quoteIdent(column)}) FROM ${quoteIdent(table.name)}`;
      const r = await exec.query(q, { maxRows: 1 });
      const [least, greatest] = r.rows[0] ?? [];
      if (least === null || least === undefined) return null;
      return `${promptIdent(table.name)}.${promptIdent(column)} holds values from ${quoteData(least, 30)} to ${quoteData(greatest ?? least, 30)}.`;
    } catch {
      return null;
    }
  }
  return null;
}

/** First line of the reasons for an empty result. */
export const EMPTY_MAY_BE_RIGHT = 'No rows can be the right answer. Facts to check the values and joins used:';
/** First line of the reasons for an aggregate over no rows. */
export const ZERO_MAY_BE_RIGHT =
  'The aggregate ran over no rows at all. Its 0 or NULL can be the right answer. Facts to check the values and joins used:';

/**
 * For a query that returned no rows: says first that no rows may be the answer, then counts the
 * rows without each top-level filter, as a fact about it (the filter that keeps none of the rows
 * the rest of the query gives); for `col = 'text'` filters the closest values that exist.
 */
export async function explainEmptyResult(
  exec: SqlExecutor,
  sql: string,
  schema: Schema,
  values?: ValueLookup,
): Promise<string[]> {
  return withLead(EMPTY_MAY_BE_RIGHT, await emptyCauses(exec, sql, schema, values));
}

/** The lead line, with its closing clause only when facts follow it. */
function withLead(lead: string, facts: string[]): string[] {
  return facts.length > 0 ? [lead, ...facts] : [lead.replace(/ Facts to check .*$/, '')];
}

/** Which filter or join leaves no rows, one fact a line. */
async function emptyCauses(exec: SqlExecutor, sql: string, schema: Schema, values?: ValueLookup): Promise<string[]> {
  const where = topLevelWhere(sql);
  if (!where) return ['The query has no top-level WHERE filter; the tables or joins themselves give no rows.'];
  const lines: string[] = [];
  for (let i = 0; i < where.predicates.length && i < 8; i++) {
    const predicate = where.predicates[i];
    let count: number | null;
    try {
      const r = await exec.query(`SELECT count(*) FROM (${where.without(i).replace(/;\s*$/, '')}) AS relaxed`, {
        maxRows: 1,
      });
      count = Number(r.rows[0]?.[0] ?? 0);
    } catch {
      count = null;
    }
    if (count === null || count === 0) continue;
    let line = `\`${predicate}\` keeps none of the ${count} row${count === 1 ? '' : 's'} the rest of the query gives.`;
    const lit = comparedLiteral(predicate);
    if (lit && values) {
      const inQuery = tablesMentioned(sql, schema);
      const hits = values
        .search(lit.value, { k: 3, column: lit.column })
        .filter((h) => inQuery.length === 0 || inQuery.includes(h.table));
      // The value itself is stored: then the rows holding it are what the rest of the query drops,
      // and listing it as a "value that exists" would read as a correction of a right filter.
      const same = hits.find((h) => h.value.toLowerCase() === lit.value.toLowerCase());
      if (same)
        line += ` ${valueData(same.value)} is stored in ${promptIdent(same.table)}.${promptIdent(same.column)}: its rows are left out by the rest of the query (the joins or the other filters).`;
      else if (hits.length)
        line += ` Values that exist: ${hits.map((h) => `${valueData(h.value)} in ${promptIdent(h.table)}.${promptIdent(h.column)}`).join(', ')}.`;
    }
    const range = await rangeOfCompared(exec, predicate, sql, schema);
    if (range) line += ` ${range}`;
    lines.push(line);
  }
  if (lines.length === 0) {
    const joins = await emptyingJoin(exec, sql);
    lines.push(
      ...(joins.length
        ? joins
        : [
            `Each filter alone is not the cause: removing any one of ${where.predicates.length} filters still gives no rows (they exclude each other, or the joins give no rows).`,
          ]),
    );
    // Two bounds of one range (>= 2012 AND < 2013) are each "not the cause" alone: say what the
    // column holds, once per column.
    const ranges = new Set<string>();
    for (const predicate of where.predicates.slice(0, 8)) {
      const range = await rangeOfCompared(exec, predicate, sql, schema);
      if (range) ranges.add(range);
    }
    lines.push(...ranges);
  }
  return lines;
}

async function countOf(exec: SqlExecutor, from: string): Promise<number | null> {
  try {
    const r = await exec.query(`SELECT count(*) FROM (SELECT 1 ${from} LIMIT 100000) AS capped`, { maxRows: 1 });
    return Number(r.rows[0]?.[0] ?? 0);
  } catch {
    return null;
  }
}

async function examples(exec: SqlExecutor, expr: string, from: string): Promise<string | null> {
  try {
    const r = await exec.query(`SELECT DISTINCT ${expr} ${from} WHERE ${expr} IS NOT NULL LIMIT 3`, { maxRows: 3 });
    return r.rows.length ? r.rows.map((row) => quoteData(row[0], 30)).join(', ') : null;
  } catch {
    return null;
  }
}

/**
 * The first join of the FROM clause after which no rows are left, with examples of the values on
 * both sides of its condition: keys that look alike but differ (" ABR" and "ABR", 1 and '1').
 */
async function emptyingJoin(exec: SqlExecutor, sql: string): Promise<string[]> {
  const source = rowSource(sql);
  if (!source || source.joins.length < 2) return [];
  for (let k = 1; k < source.joins.length; k++) {
    const before = await countOf(exec, source.joinPrefixes[k - 1]);
    const after = await countOf(exec, source.joinPrefixes[k]);
    if (before === null || after === null || before === 0 || after > 0) continue;
    const join = source.joins[k];
    const lines = [`The join \`${join}\` matches no rows (the tables before it give ${before}).`];
    const on = /\bON\s+(\S+)\s*=\s*(\S+?)\s*$/i.exec(join);
    const joined = /^(?:\w+\s+)*?JOIN\s+(.+?)\s+ON\b/i.exec(join)?.[1];
    if (on && joined) {
      const sides: string[] = [];
      for (const expr of [on[1], on[2]]) {
        const seen =
          (await examples(exec, expr, source.joinPrefixes[k - 1])) ?? (await examples(exec, expr, `FROM ${joined}`));
        if (seen) sides.push(`${expr} holds e.g. ${seen}`);
      }
      if (sides.length === 2)
        lines.push(`${sides.join('; ')}. Values that look alike may differ (spaces, case, numbers stored as text).`);
    }
    return lines;
  }
  return [];
}

/**
 * An aggregate without GROUP BY always returns one row, so "no rows" never shows: `count(*)` = 0
 * over a join that matches nothing. When its row source is empty, say which filter or join
 * emptied it, as for an empty result.
 */
export async function explainEmptyAggregate(
  exec: SqlExecutor,
  sql: string,
  schema: Schema,
  values?: ValueLookup,
): Promise<string[]> {
  if (!isPlainAggregate(sql)) return [];
  const source = rowSource(sql);
  if (!source) return [];
  try {
    const r = await exec.query(`SELECT EXISTS (${source.sql})`, { maxRows: 1 });
    if (Number(r.rows[0]?.[0]) === 1) return [];
  } catch {
    return [];
  }
  const why = topLevelWhere(source.sql)
    ? await emptyCauses(exec, source.sql, schema, values)
    : await emptyingJoin(exec, source.sql);
  return withLead(ZERO_MAY_BE_RIGHT, why);
}
