// Gold facts of a benchmark question, read from its gold SQL against the real schema: every
// table and column it references (join keys included, `*` and count(*) excluded), the string
// literals it compares with a column (`=`, `IN`, `LIKE`), and its equality join conditions.
//
// node-sql-parser (sqlite dialect) reads most gold SQL as written. What it cannot read is
// rewritten and tried again: INTERSECT / EXCEPT (which its sqlite grammar lacks) become UNION —
// the set operator changes nothing this extracts; double-quoted strings that name nothing in
// the schema become single-quoted literals (SQLite's own fallback); a schema name the parser
// takes for a keyword (a table called SHOW) is back-quoted. When even that fails, SQLite's
// EXPLAIN bytecode gives the tables and columns (explain-columns.ts), without literals or joins.
//
// SQLite's rules are followed where the parser's AST does not decide: a double-quoted word is a
// column when one of that name is in scope, else a string; an unqualified column belongs to the
// first table in FROM order that has it (then to outer queries, for correlated subqueries).

import { createRequire } from 'node:module';
import type { AST } from 'node-sql-parser';
import type { Gold, GoldFailure, GoldJoin, GoldLiteral, LiteralOp } from '../../core/eval/types';
import type { SqlExecutor } from '../../core/executor';
import type { ColumnRef } from '../../core/retrieval/types';
import { tokenize } from '../../core/sql/tokens';
import type { Schema, TableInfo } from '../../core/types';
import { explainColumns, type ExplainCatalog } from './explain-columns';

// node-sql-parser is CommonJS; Node's ESM loader does not see its named exports.
const require = createRequire(import.meta.url);
const { Parser } = require('node-sql-parser') as typeof import('node-sql-parser');

let parser: InstanceType<typeof Parser> | null = null;

/** The parser's AST for `sql` (statements as an array); throws the parser's SyntaxError. */
export function parseSqlite(sql: string): AST[] {
  parser ??= new Parser();
  const ast = parser.astify(sql, { database: 'sqlite' });
  return Array.isArray(ast) ? ast : [ast];
}

// ---------------------------------------------------------------------------------------------
// Rewrites for what the parser cannot read

/** A schema's table and column names, lower-cased, to tell identifiers from strings. */
function schemaNames(schema: Schema): Set<string> {
  const names = new Set<string>();
  for (const t of schema.tables) {
    names.add(t.name.toLowerCase());
    for (const c of t.columns) names.add(c.name.toLowerCase());
  }
  return names;
}

const unquote = (text: string): string => {
  const q = text[0];
  return text
    .slice(1, -1)
    .split(q + q)
    .join(q);
};

/**
 * What node-sql-parser's sqlite grammar lacks, said another way that extracts the same facts:
 * INTERSECT / EXCEPT -> UNION; `"text"` -> `'text'` when `text` names no table or column of the
 * schema; `OVER (ORDER BY` gets a constant PARTITION BY; `agg(DISTINCT x)` loses DISTINCT.
 * Strings, comments and identifiers are left as they are.
 */
export function rewriteForParser(sql: string, schema: Schema): string {
  const names = schemaNames(schema);
  const tokens = tokenize(sql);
  const significant = tokens.map((t) => t.kind !== 'space' && t.kind !== 'comment');
  const previous = (i: number) => {
    while (--i >= 0) if (significant[i]) return tokens[i].text;
    return '';
  };
  const next = (i: number) => {
    while (++i < tokens.length) if (significant[i]) return tokens[i].text;
    return '';
  };
  let out = '';
  for (const [i, t] of tokens.entries()) {
    if (t.kind === 'word' && /^(intersect|except)$/i.test(t.text)) out += 'UNION';
    // `sum(DISTINCT x)`: only count(DISTINCT …) is in its grammar; which rows are summed does
    // not matter here.
    else if (t.kind === 'word' && /^distinct$/i.test(t.text) && previous(i) === '(') out += '';
    // `OVER (ORDER BY …)`: its sqlite grammar wants a PARTITION BY first; one constant partition
    // means the same.
    else if (t.text === '(' && /^over$/i.test(previous(i)) && /^order$/i.test(next(i))) {
      out += '(PARTITION BY 1 ';
    } else if (
      t.kind === 'ident' &&
      t.text.startsWith('"') &&
      t.text.endsWith('"') &&
      t.text.length >= 2 &&
      !names.has(unquote(t.text).toLowerCase())
    ) {
      out += `'${unquote(t.text).replace(/'/g, "''")}'`;
    } else out += t.text;
  }
  return out;
}

/**
 * Back-quotes the bare word nearest before `offset` (where the parser gave up) when it is a
 * schema name; returns null when there is none to quote.
 */
function quoteNameNear(sql: string, offset: number, schema: Schema): string | null {
  const names = schemaNames(schema);
  const words = tokenize(sql).filter((t) => t.kind === 'word' && t.start <= offset && names.has(t.text.toLowerCase()));
  const t = words[words.length - 1];
  if (!t) return null;
  return `${sql.slice(0, t.start)}\`${t.text}\`${sql.slice(t.end)}`;
}

/** `AS Count` -> ``AS `Count` `` for an alias the parser reserves (it told us which word). */
function quoteAlias(sql: string, word: string): string | null {
  const tokens = tokenize(sql);
  let out = '';
  let changed = false;
  let previous = '';
  for (const t of tokens) {
    if (t.kind === 'word' && t.text === word && /^as$/i.test(previous)) {
      out += `\`${t.text}\``;
      changed = true;
    } else out += t.text;
    if (t.kind !== 'space' && t.kind !== 'comment') previous = t.text;
  }
  return changed ? out : null;
}

// ---------------------------------------------------------------------------------------------
// Walking the AST

/** Output columns of a derived table or CTE: name -> the column it is, or null for an expression. */
type Outputs = Map<string, ColumnRef | null>;

interface Source {
  /** Lower-case name the query uses for it (alias, else the table name). */
  alias: string;
  table?: TableInfo;
  derived?: Outputs;
}

interface Scope {
  sources: Source[];
  parent: Scope | null;
  ctes: Map<string, Outputs>;
  /** Lower-case select-list aliases (ORDER BY cnt). */
  selectAliases: Set<string>;
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

const STRING_TYPES = new Set(['single_quote_string', 'string', 'double_quote_string', 'natural_string', 'var_string']);

/** What a name in the query turned out to be. */
type Resolved = { ref: ColumnRef } | { other: true } | null;

class GoldCollector {
  private readonly tables = new Map<string, string>();
  private readonly columns = new Map<string, ColumnRef>();
  private readonly literals = new Map<string, GoldLiteral>();
  private readonly joins = new Map<string, GoldJoin>();
  private readonly unresolved = new Set<string>();
  private readonly byName: Map<string, TableInfo>;

  constructor(schema: Schema) {
    this.byName = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t]));
  }

  result(source: Gold['source']): Gold {
    return {
      tables: [...this.tables.values()],
      columns: [...this.columns.values()],
      literals: [...this.literals.values()],
      joins: [...this.joins.values()],
      source,
      unresolved: [...this.unresolved],
    };
  }

  private addTable(t: TableInfo): void {
    if (!this.tables.has(t.name.toLowerCase())) this.tables.set(t.name.toLowerCase(), t.name);
  }

  private addColumn(ref: ColumnRef): void {
    const key = `${ref.table}\u0000${ref.column}`.toLowerCase();
    if (!this.columns.has(key)) this.columns.set(key, ref);
    const t = this.byName.get(ref.table.toLowerCase());
    if (t) this.addTable(t);
  }

  private addLiteral(ref: ColumnRef, raw: string, op: LiteralOp): void {
    const value = op === 'LIKE' ? raw.replace(/%/g, '') : raw;
    if (value === '') return;
    const key = [ref.table, ref.column, value, op].join('\u0000').toLowerCase();
    if (this.literals.has(key)) return;
    this.literals.set(key, { ...ref, value, op, ...(op === 'LIKE' ? { pattern: raw } : {}) });
  }

  private addJoin(a: ColumnRef, b: ColumnRef): void {
    if (a.table.toLowerCase() === b.table.toLowerCase()) return;
    const ka = `${a.table}.${a.column}`.toLowerCase();
    const kb = `${b.table}.${b.column}`.toLowerCase();
    const key = ka < kb ? `${ka}=${kb}` : `${kb}=${ka}`;
    if (!this.joins.has(key)) this.joins.set(key, { a, b });
  }

  private columnOf(t: TableInfo, name: string): string | undefined {
    const lower = name.toLowerCase();
    return t.columns.find((c) => c.name.toLowerCase() === lower)?.name;
  }

  // -- statements

  statement(ast: unknown, parent: Scope | null, ctes: Map<string, Outputs>): Outputs {
    if (!isNode(ast)) return new Map();
    if (ast.type !== 'select') {
      throw new Error(`not a SELECT (${String(ast.type)})`);
    }
    return this.select(ast, parent, ctes);
  }

  private select(ast: Node, parent: Scope | null, outerCtes: Map<string, Outputs>): Outputs {
    const ctes = new Map(outerCtes);
    for (const w of (Array.isArray(ast.with) ? ast.with : []) as Node[]) {
      const name = nameOf(w.name);
      const stmt = isNode(w.stmt) ? (w.stmt.ast ?? w.stmt) : null;
      // Visible to the CTEs after it; a recursive CTE's reference to itself resolves to nothing.
      const outputs = this.statement(stmt, parent, ctes);
      const declared = Array.isArray(w.columns) ? (w.columns as unknown[]).map(nameOf) : [];
      if (declared.length) {
        const values = [...outputs.values()];
        ctes.set(name.toLowerCase(), new Map(declared.map((d, i) => [d.toLowerCase(), values[i] ?? null])));
      } else ctes.set(name.toLowerCase(), outputs);
    }

    const scope: Scope = { sources: [], parent, ctes, selectAliases: new Set() };
    const from = (Array.isArray(ast.from) ? ast.from : isNode(ast.from) ? [ast.from] : []) as Node[];
    for (const item of from) scope.sources.push(this.source(item, parent, ctes));
    // ON and USING after every source is known (an ON may name a later table in SQLite).
    from.forEach((item, i) => {
      if (item.on) this.expr(item.on, scope);
      if (Array.isArray(item.using)) for (const u of item.using) this.using(nameOf(u), scope.sources, i);
    });

    const selectColumns = Array.isArray(ast.columns) ? (ast.columns as Node[]) : [];
    for (const c of selectColumns) if (typeof c.as === 'string') scope.selectAliases.add(c.as.toLowerCase());
    const outputs: Outputs = new Map();
    for (const c of selectColumns) {
      const r = this.expr(c.expr, scope);
      const name =
        typeof c.as === 'string' ? c.as : isNode(c.expr) && c.expr.type === 'column_ref' ? nameOf(c.expr.column) : null;
      if (name === '*' && isNode(c.expr)) {
        // `*` / `t.*` in a derived table or CTE: what it selects stays reachable by name outside.
        const only = typeof c.expr.table === 'string' && c.expr.table ? c.expr.table.toLowerCase() : null;
        for (const src of scope.sources.filter((x) => only === null || x.alias === only))
          this.starOutputs(src, outputs);
      } else if (name) outputs.set(name.toLowerCase(), r && 'ref' in r ? r.ref : null);
    }
    if (ast.columns === '*') for (const src of scope.sources) this.starOutputs(src, outputs);
    this.expr(ast.where, scope);
    const groupby = isNode(ast.groupby) ? ast.groupby.columns : ast.groupby;
    this.expr(groupby, scope);
    this.expr(ast.having, scope);
    for (const o of (Array.isArray(ast.orderby) ? ast.orderby : []) as Node[]) this.expr(o.expr, scope);
    this.expr(ast.limit, scope);
    this.expr(ast.window, scope);

    // Later branches of a compound see the same WITH.
    if (isNode(ast._next)) this.select(ast._next, parent, ctes);
    return outputs;
  }

  private starOutputs(src: Source, outputs: Outputs): void {
    if (src.table)
      for (const c of src.table.columns)
        if (!outputs.has(c.name.toLowerCase()))
          outputs.set(c.name.toLowerCase(), { table: src.table.name, column: c.name });
    if (src.derived) for (const [k, v] of src.derived) if (!outputs.has(k)) outputs.set(k, v);
  }

  private source(item: Node, parent: Scope | null, ctes: Map<string, Outputs>): Source {
    const as = typeof item.as === 'string' ? item.as : null;
    if (typeof item.table === 'string' && !item.expr) {
      const lower = item.table.toLowerCase();
      const cte = ctes.get(lower);
      if (cte) return { alias: (as ?? item.table).toLowerCase(), derived: cte };
      const t = this.byName.get(lower);
      if (!t) {
        this.unresolved.add(item.table);
        return { alias: (as ?? item.table).toLowerCase() };
      }
      this.addTable(t);
      return { alias: (as ?? t.name).toLowerCase(), table: t };
    }
    const sub = isNode(item.expr) ? item.expr.ast : undefined;
    if (isNode(sub)) {
      // A derived table sees the outer query's scope only (no LATERAL in SQLite).
      return { alias: (as ?? '').toLowerCase(), derived: this.statement(sub, parent, ctes) };
    }
    // Table-valued functions, VALUES lists: nothing from the schema, but walk their arguments.
    this.expr(item.expr, { sources: [], parent, ctes, selectAliases: new Set() });
    return { alias: (as ?? '').toLowerCase() };
  }

  /** `JOIN b USING (col)`: the column in b and in the first earlier source that has it. */
  private using(column: string, sources: Source[], index: number): void {
    const right = this.inSource(sources[index], column);
    let left: ColumnRef | null = null;
    for (const s of sources.slice(0, index)) {
      left = this.inSource(s, column);
      if (left) break;
    }
    if (right) this.addColumn(right);
    if (left) this.addColumn(left);
    if (left && right) this.addJoin(left, right);
    if (!left || !right) this.unresolved.add(`USING ${column}`);
  }

  private inSource(s: Source | undefined, column: string): ColumnRef | null {
    if (!s) return null;
    if (s.table) {
      const c = this.columnOf(s.table, column);
      return c ? { table: s.table.name, column: c } : null;
    }
    return s.derived?.get(column.toLowerCase()) ?? null;
  }

  // -- names

  private resolveColumn(tableName: string | null, column: string, scope: Scope): Resolved {
    const lower = column.toLowerCase();
    if (tableName) {
      const alias = tableName.toLowerCase();
      for (let s: Scope | null = scope; s; s = s.parent) {
        const src = s.sources.find((x) => x.alias === alias);
        if (!src) continue;
        if (src.table) {
          const c = this.columnOf(src.table, column);
          return c ? { ref: { table: src.table.name, column: c } } : null;
        }
        if (src.derived) {
          if (!src.derived.has(lower)) return null;
          const ref = src.derived.get(lower);
          return ref ? { ref } : { other: true };
        }
        return null;
      }
      // The table's own name although it has an alias: lenient, SQLite would refuse it.
      const t = this.byName.get(alias);
      const c = t && this.columnOf(t, column);
      return t && c ? { ref: { table: t.name, column: c } } : null;
    }
    for (let s: Scope | null = scope; s; s = s.parent) {
      for (const src of s.sources) {
        if (src.table) {
          const c = this.columnOf(src.table, column);
          if (c) return { ref: { table: src.table.name, column: c } };
        } else if (src.derived?.has(lower)) {
          const ref = src.derived.get(lower);
          return ref ? { ref } : { other: true };
        }
      }
      if (s.selectAliases.has(lower)) return { other: true };
    }
    return null;
  }

  /** A column_ref node (or a double-quoted word that names a column in scope). */
  private columnRef(node: Node, scope: Scope): Resolved {
    if (node.type === 'double_quote_string') {
      const r = this.resolveColumn(null, String(node.value), scope);
      if (r && 'ref' in r) this.addColumn(r.ref);
      return r;
    }
    const column = nameOf(node.column);
    if (column === '*' || column === '') return { other: true };
    const table = typeof node.table === 'string' && node.table ? node.table : null;
    const r = this.resolveColumn(table, column, scope);
    if (r && 'ref' in r) this.addColumn(r.ref);
    else if (!r) this.unresolved.add(table ? `${table}.${column}` : column);
    return r;
  }

  /** A string literal node's text, or null when the node is not one. */
  private stringOf(node: unknown, scope: Scope): string | null {
    if (!isNode(node) || !STRING_TYPES.has(String(node.type))) return null;
    if (node.type === 'double_quote_string' && this.resolveColumn(null, String(node.value), scope)) return null;
    return String(node.value);
  }

  private refOf(node: unknown, scope: Scope): ColumnRef | null {
    if (!isNode(node) || (node.type !== 'column_ref' && node.type !== 'double_quote_string')) return null;
    const r = this.columnRef(node, scope);
    return r && 'ref' in r ? r.ref : null;
  }

  // -- expressions

  expr(node: unknown, scope: Scope): Resolved {
    if (Array.isArray(node)) {
      for (const n of node) this.expr(n, scope);
      return null;
    }
    if (!isNode(node)) return null;
    if (node.type === 'column_ref' || node.type === 'double_quote_string') return this.columnRef(node, scope);
    if (isNode(node.ast)) {
      this.statement(node.ast, scope, scope.ctes);
      return null;
    }
    if (node.type === 'select') {
      this.statement(node, scope, scope.ctes);
      return null;
    }
    if (node.type === 'binary_expr') {
      this.binary(node, scope);
      return null;
    }
    for (const v of Object.values(node)) if (typeof v === 'object' && v !== null) this.expr(v, scope);
    return null;
  }

  private binary(node: Node, scope: Scope): void {
    const op = String(node.operator).toUpperCase();
    const left = this.refOf(node.left, scope);
    const right = this.refOf(node.right, scope);
    if (!left) this.expr(node.left, scope);
    if (!right) this.expr(node.right, scope);
    if (op === '=' || op === '==') {
      if (left && right) this.addJoin(left, right);
      const ls = left ? this.stringOf(node.right, scope) : null;
      const rs = right ? this.stringOf(node.left, scope) : null;
      if (left && ls !== null) this.addLiteral(left, ls, '=');
      if (right && rs !== null) this.addLiteral(right, rs, '=');
    } else if (
      op === 'IN' &&
      left &&
      isNode(node.right) &&
      node.right.type === 'expr_list' &&
      Array.isArray(node.right.value)
    ) {
      for (const v of node.right.value) {
        const s = this.stringOf(v, scope);
        if (s !== null) this.addLiteral(left, s, 'IN');
      }
    } else if (op === 'LIKE' && left) {
      const s = this.stringOf(node.right, scope);
      if (s !== null) this.addLiteral(left, s, 'LIKE');
    }
  }
}

/** A name in the AST: a string, or `{ type: 'default', value }`, or `{ expr: { value } }`. */
function nameOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isNode(v)) {
    if (typeof v.value === 'string') return v.value;
    if (isNode(v.expr)) return nameOf(v.expr);
  }
  return '';
}

function collect(asts: AST[], schema: Schema, source: Gold['source']): Gold {
  const c = new GoldCollector(schema);
  for (const ast of asts) c.statement(ast, null, new Map());
  return c.result(source);
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 200);

export interface ExtractOptions {
  /** Reused EXPLAIN catalog of the database (built on first need otherwise). */
  explainCatalog?: ExplainCatalog;
}

/** Parses with node-sql-parser, then with rewrites; returns the AST and whether it was rewritten. */
export function parseGoldSql(sql: string, schema: Schema): { asts: AST[]; rewritten: boolean } | { error: string } {
  try {
    return { asts: parseSqlite(sql), rewritten: false };
  } catch (e) {
    let text = rewriteForParser(sql, schema);
    let last = messageOf(e);
    for (let attempt = 0; attempt < 6; attempt++) {
      try {
        return { asts: parseSqlite(text), rewritten: true };
      } catch (e2) {
        last = messageOf(e2);
        const offset = (e2 as { location?: { start?: { offset?: number } } }).location?.start?.offset;
        const reserved = /"([A-Za-z_][A-Za-z0-9_]*)" is a reserved word/.exec(last)?.[1];
        const next = reserved
          ? quoteAlias(text, reserved)
          : typeof offset === 'number'
            ? quoteNameNear(text, offset, schema)
            : null;
        if (!next || next === text) break;
        text = next;
      }
    }
    return { error: last };
  }
}

/**
 * Gold tables, columns, literals and joins of one gold query. Falls back to EXPLAIN (tables and
 * columns only) when the parser cannot read it; a failure only when both fail.
 */
export async function extractGold(
  sql: string,
  schema: Schema,
  exec: SqlExecutor,
  options: ExtractOptions = {},
): Promise<Gold | GoldFailure> {
  const parsed = parseGoldSql(sql, schema);
  let parseError: string;
  if ('asts' in parsed) {
    try {
      return collect(parsed.asts, schema, parsed.rewritten ? 'parser-rewritten' : 'parser');
    } catch (e) {
      parseError = messageOf(e);
    }
  } else parseError = parsed.error;
  try {
    const ex = await explainColumns(sql, exec, options.explainCatalog);
    return { tables: ex.tables, columns: ex.columns, literals: [], joins: [], source: 'explain', unresolved: [] };
  } catch (e) {
    return { failure: `parser: ${parseError}; explain: ${messageOf(e)}` };
  }
}

export const isGoldFailure = (g: Gold | GoldFailure): g is GoldFailure => 'failure' in g;
