// Reads the schema through PRAGMAs and sqlite_schema using only read statements, so the same
// code runs on every transport. Every generated statement quotes its identifiers.
//
// Reading is bounded in time: a file with 10,000 tables or 1,000 nested views (a view's columns
// cost a compile of every view below it) would otherwise take minutes. Every object is listed;
// once the budget is spent the rest are marked `skipped`, and a later call with `only` reads
// them (the explorer fills a table in when it is opened, or reads on in further slices).

import { quoteIdent, quoteLiteral } from '../sql/quote';
import { significant, tokenize } from '../sql/tokens';
import type { SqlExecutor } from '../executor';
import type { ColumnInfo, ForeignKey, IndexInfo, Schema, SqlValue, TableInfo } from '../types';
import { affinityOf } from './affinity';

const ALL = { maxRows: 1_000_000 };

type Row = Record<string, SqlValue>;

async function rows(exec: SqlExecutor, sql: string): Promise<Row[]> {
  const r = await exec.query(sql, ALL);
  return r.rows.map((values) => Object.fromEntries(r.columns.map((c, i) => [c, values[i]])));
}

const str = (v: SqlValue): string => (v == null ? '' : String(v));
const num = (v: SqlValue): number => (typeof v === 'number' ? v : Number(v ?? 0));

/**
 * `WITHOUT ROWID` among the table options after the column list's closing parenthesis (in
 * either order with STRICT). Tokens, not a regex: a `--` inside a string literal such as
 * `DEFAULT '--'` must not be taken for a comment that hides the rest of the line.
 */
export function isWithoutRowid(sql: string | null): boolean {
  if (!sql) return false;
  const tokens = significant(tokenize(sql));
  let depth = 0;
  let afterColumns = tokens.length;
  tokens.forEach((t, i) => {
    if (t.text === '(') depth++;
    else if (t.text === ')' && --depth === 0) afterColumns = i + 1;
  });
  const options = tokens.slice(afterColumns).map((t) => t.text.toLowerCase());
  return options.some((w, i) => w === 'without' && options[i + 1] === 'rowid');
}

async function columnsOf(exec: SqlExecutor, table: string): Promise<ColumnInfo[]> {
  const info = await rows(exec, `SELECT * FROM pragma_table_xinfo(${quoteLiteral(table)})`);
  return info.map((c) => ({
    name: str(c.name),
    declaredType: str(c.type),
    affinity: affinityOf(str(c.type)),
    notNull: num(c.notnull) === 1,
    defaultValue: c.dflt_value == null ? null : String(c.dflt_value),
    pkIndex: num(c.pk),
    // hidden: 1 = hidden column of a virtual table, 2/3 = generated columns (still readable)
    hidden: num(c.hidden) === 1,
  }));
}

async function foreignKeysOf(
  exec: SqlExecutor,
  table: string,
  pkOf: (t: string) => Promise<string[]>,
): Promise<ForeignKey[]> {
  const list = await rows(exec, `SELECT * FROM pragma_foreign_key_list(${quoteLiteral(table)}) ORDER BY id, seq`);
  const byId = new Map<number, ForeignKey>();
  for (const r of list) {
    const id = num(r.id);
    let fk = byId.get(id);
    if (!fk) {
      fk = {
        id,
        table,
        from: [],
        refTable: str(r.table),
        to: [],
        onUpdate: str(r.on_update),
        onDelete: str(r.on_delete),
      };
      byId.set(id, fk);
    }
    fk.from.push(str(r.from));
    // `to` is NULL when the declaration names only the table: it means that table's primary key.
    fk.to.push(r.to == null ? '' : str(r.to));
  }
  for (const fk of byId.values()) {
    if (fk.to.some((t) => t === '')) {
      const pk = await pkOf(fk.refTable);
      fk.to = fk.to.map((t, i) => t || pk[i] || 'rowid');
    }
  }
  // A key declared twice (inline and again as a table constraint, as in Spider's dog_kennels) is
  // one relation: listing it twice would double it in prompts and join paths.
  const seen = new Set<string>();
  return [...byId.values()].filter((fk) => {
    const key = JSON.stringify([fk.from, fk.refTable.toLowerCase(), fk.to]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function indexesOf(exec: SqlExecutor, table: string): Promise<IndexInfo[]> {
  const list = await rows(exec, `SELECT * FROM pragma_index_list(${quoteLiteral(table)})`);
  const out: IndexInfo[] = [];
  for (const ix of list) {
    const cols = await rows(exec, `SELECT * FROM pragma_index_info(${quoteLiteral(str(ix.name))}) ORDER BY seqno`);
    out.push({
      name: str(ix.name),
      unique: num(ix.unique) === 1,
      origin: str(ix.origin),
      partial: num(ix.partial) === 1,
      columns: cols.map((c) => (c.name == null ? '<expression>' : str(c.name))),
    });
  }
  return out;
}

interface RowCount {
  count: number | null;
  estimated?: true;
  error?: string;
}

/**
 * Rows of a table: counted exactly, or, with `exactUpTo`, counted up to that many and then
 * estimated from the rowid range (two b-tree descents), so a schema shows at once however
 * large the file (a count reads every page of the table: seconds per gigabyte read from a file).
 */
async function rowCountOf(exec: SqlExecutor, table: string, rowid: boolean, exactUpTo?: number): Promise<RowCount> {
  const t = quoteIdent(table);
  try {
    if (exactUpTo !== undefined && rowid) {
      const r = await exec.query(`SELECT count(*) FROM (SELECT 1 FROM ${t} LIMIT ${exactUpTo + 1})`);
      const counted = num(r.rows[0]?.[0] ?? null);
      if (counted === null || counted <= exactUpTo) return { count: counted };
      // Two subqueries: SQLite finds a lone min() or max() of the rowid at a b-tree's end, not both in one.
      const range = await exec.query(`SELECT (SELECT max(rowid) FROM ${t}) - (SELECT min(rowid) FROM ${t}) + 1`);
      const span = num(range.rows[0]?.[0] ?? null);
      if (span !== null && span > exactUpTo) return { count: span, estimated: true };
    }
    const r = await exec.query(`SELECT count(*) FROM ${t}`);
    return { count: num(r.rows[0]?.[0] ?? null) };
  } catch (e) {
    return { count: null, error: e instanceof Error ? e.message : String(e) };
  }
}

/** `CREATE VIRTUAL TABLE x USING mod(...)` -> 'mod' */
export function virtualModule(sql: string | null): string | null {
  const m = sql?.match(/\bUSING\s+("?)([A-Za-z0-9_]+)\1/i);
  return m ? m[2] : null;
}

/** Time one introspection call may take before it lists the remaining objects by name only. */
export const DEFAULT_INTROSPECT_BUDGET_MS = 5_000;

export interface IntrospectOptions {
  /** Stop reading details after this long (ms); the objects left are `skipped`. */
  budgetMs?: number;
  /** Read only these objects (by exact name), e.g. the ones an earlier call skipped. */
  only?: readonly string[];
  /** Read the details of at most this many objects (keeps each answer small); the rest are `skipped`. */
  maxObjects?: number;
  /** Count the rows of views (default true): a view's count runs its whole query. */
  countViews?: boolean;
  /**
   * Count a table's rows exactly up to this many; above, estimate from its rowid range and mark
   * the count `rowCountEstimated` (the engine asks this for files read where they lie).
   */
  exactRowsUpTo?: number;
  /** Clock, for tests. */
  now?: () => number;
}

const clock = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** An object listed by name only (its CREATE text left out too: skipped entries stay small). */
function skippedTable(name: string, kind: TableInfo['kind']): TableInfo {
  return {
    name,
    kind,
    sql: null,
    columns: [],
    primaryKey: [],
    withoutRowid: false,
    foreignKeys: [],
    indexes: [],
    rowCount: null,
    skipped: true,
  };
}

/** `base` with the objects read in `part` put in place of their skipped entries. */
export function mergeSchema(base: Schema, part: Schema): Schema {
  const read = new Map(part.tables.filter((t) => !t.skipped).map((t) => [t.name, t]));
  const tables = base.tables.map((t) => read.get(t.name) ?? t);
  const skipped = tables.filter((t) => t.skipped).length;
  const budgetMs = part.incomplete?.budgetMs ?? base.incomplete?.budgetMs ?? DEFAULT_INTROSPECT_BUDGET_MS;
  return {
    tables,
    foreignKeys: tables.flatMap((t) => t.foreignKeys),
    ...(skipped ? { incomplete: { skipped, budgetMs } } : {}),
  };
}

export async function introspect(exec: SqlExecutor, options: IntrospectOptions = {}): Promise<Schema> {
  const now = options.now ?? clock;
  const started = now();
  const budgetMs = options.budgetMs ?? DEFAULT_INTROSPECT_BUDGET_MS;
  const only = options.only ? new Set(options.only) : null;
  const objects = await rows(
    exec,
    `SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name COLLATE NOCASE`,
  );
  // Shadow tables of virtual tables (fts5 `x_data`, `x_idx`, ...) are implementation detail.
  const virtualNames = objects.filter((o) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(str(o.sql))).map((o) => str(o.name));
  const isShadow = (name: string) =>
    virtualNames.some(
      (v) =>
        name.startsWith(v + '_') &&
        /_(data|idx|content|docsize|config|segments|segdir|stat|node|parent|rowid)$/.test(name),
    );

  const pkCache = new Map<string, string[]>();
  const pkOf = async (t: string): Promise<string[]> => {
    if (!pkCache.has(t)) {
      const cols = await columnsOf(exec, t).catch(() => []);
      pkCache.set(
        t,
        cols
          .filter((c) => c.pkIndex > 0)
          .sort((a, b) => a.pkIndex - b.pkIndex)
          .map((c) => c.name),
      );
    }
    return pkCache.get(t)!;
  };

  const tables: TableInfo[] = [];
  let skipped = 0;
  let read = 0;
  const maxObjects = options.maxObjects ?? Infinity;
  for (const o of objects) {
    const name = str(o.name);
    const sql = o.sql == null ? null : str(o.sql);
    if (isShadow(name) || (only && !only.has(name))) continue;
    const isVirtual = /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(sql ?? '');
    const kind: TableInfo['kind'] = o.type === 'view' ? 'view' : isVirtual ? 'virtual' : 'table';
    // At least one object per call, so reading in slices always gets on.
    if (read > 0 && (read >= maxObjects || now() - started > budgetMs)) {
      tables.push(skippedTable(name, kind));
      skipped++;
      continue;
    }
    read++;
    let columns: ColumnInfo[] = [];
    let error: string | undefined;
    try {
      columns = (await columnsOf(exec, name)).filter((c) => !c.hidden);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const withoutRowid = kind === 'table' && isWithoutRowid(sql);
    const rc: RowCount =
      error || (kind === 'view' && options.countViews === false)
        ? { count: null, error }
        : await rowCountOf(exec, name, kind === 'table' && !withoutRowid, options.exactRowsUpTo);
    if (rc.error && isVirtual) {
      const mod = virtualModule(sql);
      error = /no such module/i.test(rc.error)
        ? `virtual table using module "${mod}", which this SQLite build lacks`
        : rc.error;
    } else if (rc.error) {
      error = rc.error;
    }
    const primaryKey = columns
      .filter((c) => c.pkIndex > 0)
      .sort((a, b) => a.pkIndex - b.pkIndex)
      .map((c) => c.name);
    pkCache.set(name, primaryKey);
    tables.push({
      name,
      kind,
      sql,
      columns,
      primaryKey,
      withoutRowid,
      foreignKeys: kind === 'table' ? await foreignKeysOf(exec, name, pkOf) : [],
      indexes: kind === 'table' ? await indexesOf(exec, name) : [],
      rowCount: rc.count,
      ...(rc.estimated ? { rowCountEstimated: true as const } : {}),
      ...(error ? { error } : {}),
    });
  }
  return {
    tables,
    foreignKeys: tables.flatMap((t) => t.foreignKeys),
    ...(skipped ? { incomplete: { skipped, budgetMs } } : {}),
  };
}
