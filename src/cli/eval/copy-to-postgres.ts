// A SQLite file copied into a PostgreSQL database with faithful types (issue 36, item 5), so
// `dowser eval` can ask Spider's questions on a server. This is a write path for evaluation
// fixtures only: it talks to the server with plain `pg`, never through the read-only
// PostgresEngine, and reads the SQLite file with sql.js in memory (the file is never written).
//
// Each column's type comes from the values stored in it (typeof), the declared type's affinity
// only when it holds nothing but NULLs. Names are lower-cased (ASCII, as PostgreSQL folds unquoted
// names) unless that makes two alike in their scope. Declared primary keys and unique constraints
// are added when the data allows it, declared foreign keys as NOT VALID constraints after every
// table is loaded; everything left out is said in the report's notes.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { Database, SqlValue } from 'sql.js';
import { readHeader } from '../../core/db/file-check';
import { DowserError } from '../../core/errors';
import { quoteIdent } from '../../core/sql/quote';
import { affinityOf } from '../../core/schema/affinity';
import { loadSqlJs } from '../../adapters/sqljs/runtime';
import { readDatabaseFile } from '../../adapters/sqljs/node';
import { describeTarget } from '../../adapters/postgres/target';

export type PgColumnType = 'integer' | 'bigint' | 'double precision' | 'numeric' | 'text' | 'bytea';

export interface CopyReport {
  tables: Array<{
    from: string;
    to: string;
    rows: number;
    columns: Array<{ from: string; to: string; type: PgColumnType }>;
  }>;
  /** Everything skipped, kept or changed that a reader of the copy should know. */
  notes: string[];
}

export interface CopyOptions {
  sqlitePath: string;
  /** postgres://…/database: the database written into (the password from the URL or PGPASSWORD, as pg reads them). */
  url: string;
  /** Drop the tables about to be created first (`DROP TABLE IF EXISTS … CASCADE`). */
  replace?: boolean;
}

/** PostgreSQL's limit on the parameters of one statement. */
const MAX_PARAMS = 65_535;
const ROWS_PER_INSERT = 500;
/** PostgreSQL keeps NAMEDATALEN - 1 bytes of an identifier and silently cuts the rest. */
const MAX_NAME_BYTES = 63;
const INT4_MIN = -2147483648n;
const INT4_MAX = 2147483647n;
const SAFE_INT = BigInt(Number.MAX_SAFE_INTEGER);

interface SourceColumn {
  from: string;
  to: string;
  declared: string;
  type: PgColumnType;
  /** The SELECT expression: the column, or its text (CAST) when the column mixes text with other values. */
  select: string;
  /** Position in the declared primary key (1-based), 0 when not part of it. */
  pk: number;
}

interface SourceTable {
  from: string;
  to: string;
  columns: SourceColumn[];
}

interface Key {
  /** PostgreSQL column names, in the key's order. */
  columns: string[];
  kind: 'primary key' | 'unique';
}

/** Copies the SQLite file at `sqlitePath` into the PostgreSQL database `url` names. */
export async function copySqliteToPostgres(o: CopyOptions): Promise<CopyReport> {
  const notes: string[] = [];
  for (const side of ['-wal', '-journal'])
    if (existsSync(o.sqlitePath + side))
      notes.push(`${o.sqlitePath}${side} exists and was not read: only the main file's committed pages are copied`);
  const db = await openSqlite(o.sqlitePath);
  try {
    const tables = readTables(db, notes);
    const client = new pg.Client({ connectionString: o.url, application_name: 'dowser copy-to-postgres' });
    await client.connect();
    try {
      await makeRoom(client, tables, o);
      const report: CopyReport = { tables: [], notes };
      const keys = new Map<SourceTable, Key[]>();
      for (const t of tables) {
        const { rows, made } = await copyTable(db, client, t, notes);
        keys.set(t, made);
        report.tables.push({
          from: t.from,
          to: t.to,
          rows,
          columns: t.columns.map((c) => ({ from: c.from, to: c.to, type: c.type })),
        });
      }
      await addForeignKeys(db, client, tables, keys, notes);
      if (tables.length) await client.query(`ANALYZE ${tables.map((t) => quoteIdent(t.to)).join(', ')}`);
      return report;
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    db.close();
  }
}

/**
 * Creates database `name` on the server `adminUrl` connects to, when it does not exist yet.
 * Resolves to true when it was created.
 */
export async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<boolean> {
  if (!/^[a-z0-9_]+$/.test(name) || name.length > MAX_NAME_BYTES)
    throw new DowserError(
      'unsupported',
      `"${name}" is not a database name this command creates: lower-case letters, digits and _ only`,
    );
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'dowser copy-to-postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (e) {
      // Created by someone else in between.
      if ((e as { code?: string }).code === '42P04') return false;
      throw e;
    }
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const wasmPath = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');

async function openSqlite(path: string): Promise<Database> {
  const bytes = await readDatabaseFile(path);
  readHeader(bytes);
  const wasm = await readFile(wasmPath);
  const { SQL } = await loadSqlJs(async (imports) => (await WebAssembly.instantiate(wasm, imports)).instance);
  return new SQL.Database(bytes);
}

type Row = Record<string, SqlValue | bigint>;

/** Rows of a metadata statement, integers as bigints. */
function rowsOf(db: Database, sql: string): Row[] {
  const stmt = db.prepare(sql);
  try {
    const names = stmt.getColumnNames();
    const out: Row[] = [];
    while (stmt.step()) {
      const values = getRow(stmt);
      out.push(Object.fromEntries(names.map((n, i) => [n, values[i]])));
    }
    return out;
  } finally {
    stmt.free();
  }
}

/** The current row with integers as bigints (sql.js's typings do not know the option). */
function getRow(stmt: ReturnType<Database['prepare']>): Array<SqlValue | bigint> {
  return (stmt.get as (p: null, c: { useBigInt: boolean }) => Array<SqlValue | bigint>)(null, { useBigInt: true });
}

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** The tables to copy, their columns named and typed for PostgreSQL; views and SQLite's own tables are left out. */
function readTables(db: Database, notes: string[]): SourceTable[] {
  const kinds = new Map(
    rowsOf(db, "SELECT name, type FROM pragma_table_list WHERE schema = 'main'").map((r) => [str(r.name), str(r.type)]),
  );
  const entries = rowsOf(db, "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY rowid");
  const picked: string[] = [];
  for (const e of entries) {
    const name = str(e.name);
    if (/^sqlite_/i.test(name)) continue;
    const kind = kinds.get(name) ?? str(e.type);
    if (kind === 'view') notes.push(`view ${name} skipped (its SQLite SQL is not carried over)`);
    else if (kind === 'shadow') notes.push(`table ${name} skipped: it holds a virtual table's data`);
    else {
      if (kind === 'virtual') notes.push(`virtual table ${name} copied as a plain table of its rows`);
      picked.push(name);
    }
  }
  const tableNames = pgNames(picked, 'table', notes);
  return picked.map((from, i) => {
    const info = rowsOf(db, `SELECT name, type, pk, hidden FROM pragma_table_xinfo(${sqlLiteral(from)})`).filter(
      (c) => Number(c.hidden) !== 1,
    );
    const colNames = pgNames(
      info.map((c) => str(c.name)),
      `column of ${from}`,
      notes,
    );
    const columns = info.map((c, j) => {
      const name = str(c.name);
      const { type, select } = columnType(db, from, name, str(c.type), notes);
      return { from: name, to: colNames[j], declared: str(c.type), type, select, pk: Number(c.pk) };
    });
    return { from, to: tableNames[i], columns };
  });
}

/**
 * PostgreSQL names for `names` (one scope): lower-cased as PostgreSQL folds unquoted names (ASCII
 * letters only) when no other name of the scope lower-cases the same, else kept exactly.
 */
function pgNames(names: string[], scope: string, notes: string[]): string[] {
  const lower = (n: string) => n.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  const count = new Map<string, number>();
  for (const n of names) count.set(lower(n), (count.get(lower(n)) ?? 0) + 1);
  return names.map((n) => {
    if (Buffer.byteLength(n) > MAX_NAME_BYTES)
      throw new DowserError('unsupported', `${scope} name "${n}" is longer than PostgreSQL's ${MAX_NAME_BYTES} bytes`);
    if (count.get(lower(n))! === 1) return lower(n);
    if (lower(n) !== n) notes.push(`${scope} ${n} kept as "${n}": lower-cased it would clash with another name`);
    return n;
  });
}

function sqlLiteral(s: string): string {
  return "'" + s.replace(/'/g, "''") + "'";
}

/** The PostgreSQL type of one column, from the kinds of values it holds (rules in the file's header). */
function columnType(
  db: Database,
  table: string,
  column: string,
  declared: string,
  notes: string[],
): { type: PgColumnType; select: string } {
  const c = quoteIdent(column);
  const t = quoteIdent(table);
  const counts = new Map<string, number>();
  for (const r of rowsOf(db, `SELECT typeof(${c}) AS k, count(*) AS n FROM ${t} GROUP BY 1`))
    if (r.k !== 'null') counts.set(str(r.k), Number(r.n));
  const has = (k: string) => counts.has(k);
  const where = `${table}.${column}`;
  if (counts.size === 0) {
    const byAffinity = { INTEGER: 'bigint', REAL: 'double precision', NUMERIC: 'numeric', BLOB: 'bytea', TEXT: 'text' };
    return { type: byAffinity[affinityOf(declared)] as PgColumnType, select: c };
  }
  const range = () => {
    const [r] = rowsOf(db, `SELECT min(${c}) AS lo, max(${c}) AS hi FROM ${t} WHERE typeof(${c}) = 'integer'`);
    return { lo: BigInt(r.lo as bigint), hi: BigInt(r.hi as bigint) };
  };
  if (counts.size === 1 && has('integer')) {
    const { lo, hi } = range();
    return { type: lo < INT4_MIN || hi > INT4_MAX ? 'bigint' : 'integer', select: c };
  }
  if (counts.size === 1 && has('text')) return { type: 'text', select: c };
  if (counts.size === 1 && has('blob')) return { type: 'bytea', select: c };
  if ([...counts.keys()].every((k) => k === 'integer' || k === 'real')) {
    if (has('integer')) {
      const { lo, hi } = range();
      if (lo < -SAFE_INT || hi > SAFE_INT)
        notes.push(`${where}: integers beyond 2^53 among reals, stored as double precision (rounded)`);
    }
    return { type: 'double precision', select: c };
  }
  const kinds = [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
  notes.push(`${where}: mixed values (${kinds}) copied as text, each as SQLite's text of it`);
  return { type: 'text', select: `CAST(${c} AS TEXT)` };
}

/** Drops the tables about to be made (`replace`), or fails naming those that exist already. */
async function makeRoom(client: pg.Client, tables: SourceTable[], o: CopyOptions): Promise<void> {
  if (!tables.length) return;
  const names = tables.map((t) => t.to);
  if (o.replace) {
    await client.query(`DROP TABLE IF EXISTS ${names.map(quoteIdent).join(', ')} CASCADE`);
    return;
  }
  const { rows } = await client.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relname = ANY($1::text[]) ORDER BY 1`,
    [names],
  );
  if (rows.length) {
    const list = rows.map((r) => `"${r.relname}"`).join(', ');
    const where = describeTarget({ url: o.url, env: process.env });
    throw new DowserError(
      'sql_error',
      `${rows.length === 1 ? 'table' : 'tables'} ${list} already ${rows.length === 1 ? 'exists' : 'exist'} in ${where}: replace them with --replace`,
    );
  }
}

/** One table in one transaction: created, filled, its declared keys added where the data allows. */
async function copyTable(
  db: Database,
  client: pg.Client,
  t: SourceTable,
  notes: string[],
): Promise<{ rows: number; made: Key[] }> {
  const cols = t.columns;
  const target = quoteIdent(t.to);
  await client.query('BEGIN');
  try {
    await client.query(`CREATE TABLE ${target} (${cols.map((c) => `${quoteIdent(c.to)} ${c.type}`).join(', ')})`);
    const perInsert = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(MAX_PARAMS / cols.length)));
    const head = `INSERT INTO ${target} (${cols.map((c) => quoteIdent(c.to)).join(', ')}) VALUES `;
    const insertOf = (n: number) =>
      head +
      Array.from({ length: n }, (_, r) => `(${cols.map((_c, i) => `$${r * cols.length + i + 1}`).join(', ')})`).join(
        ', ',
      );
    const fullInsert = insertOf(perInsert);
    let rows = 0;
    let nuls = 0;
    let batch: unknown[] = [];
    let inBatch = 0;
    const flush = async () => {
      if (!inBatch) return;
      await client.query(inBatch === perInsert ? fullInsert : insertOf(inBatch), batch);
      rows += inBatch;
      batch = [];
      inBatch = 0;
    };
    const stmt = db.prepare(`SELECT ${cols.map((c) => c.select).join(', ')} FROM ${quoteIdent(t.from)}`);
    try {
      while (stmt.step()) {
        for (const v of getRow(stmt)) {
          if (typeof v === 'string' && v.includes('\u0000')) {
            nuls++;
            batch.push(v.replaceAll('\u0000', ''));
          } else batch.push(toParam(v));
        }
        if (++inBatch === perInsert) await flush();
      }
      await flush();
    } finally {
      stmt.free();
    }
    if (nuls)
      notes.push(
        `${t.from}: ${nuls} text ${nuls === 1 ? 'value' : 'values'} held NUL characters, which PostgreSQL text cannot: removed`,
      );
    const made = await addKeys(db, client, t, notes);
    await client.query('COMMIT');
    return { rows, made };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

/** A SQLite value as a pg parameter: integers as their exact digits, blobs as Buffers. */
function toParam(v: SqlValue | bigint): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isNaN(v) ? null : String(v);
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

/** The declared primary key and unique constraints, each added in a savepoint and noted when the data breaks it. */
async function addKeys(db: Database, client: pg.Client, t: SourceTable, notes: string[]): Promise<Key[]> {
  const made: Key[] = [];
  const wanted: Array<Key & { from: string[] }> = [];
  const pk = t.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  if (pk.length) wanted.push({ kind: 'primary key', columns: pk.map((c) => c.to), from: pk.map((c) => c.from) });
  const byName = new Map(t.columns.map((c) => [c.from, c]));
  for (const ix of rowsOf(db, `SELECT name, "unique", origin, partial FROM pragma_index_list(${sqlLiteral(t.from)})`)) {
    if (Number(ix.unique) !== 1 || Number(ix.partial) === 1 || ix.origin === 'pk') continue;
    const parts = rowsOf(db, `SELECT cid, name FROM pragma_index_info(${sqlLiteral(str(ix.name))}) ORDER BY seqno`);
    const cols = parts.map((p) => (Number(p.cid) < 0 ? undefined : byName.get(str(p.name))));
    if (cols.some((c) => c === undefined)) {
      notes.push(`${t.from}: unique index ${str(ix.name)} on an expression skipped`);
      continue;
    }
    const key = { kind: 'unique' as const, columns: cols.map((c) => c!.to), from: cols.map((c) => c!.from) };
    if (!wanted.some((w) => sameSet(w.columns, key.columns))) wanted.push(key);
  }
  for (const key of wanted) {
    await client.query('SAVEPOINT dowser_key');
    try {
      await client.query(
        `ALTER TABLE ${quoteIdent(t.to)} ADD ${key.kind === 'primary key' ? 'PRIMARY KEY' : 'UNIQUE'} (${key.columns.map(quoteIdent).join(', ')})`,
      );
      await client.query('RELEASE SAVEPOINT dowser_key');
      made.push({ kind: key.kind, columns: key.columns });
    } catch (e) {
      const err = e as { code?: string; message?: string; detail?: string };
      if (!err.code?.startsWith('23')) throw e;
      await client.query('ROLLBACK TO SAVEPOINT dowser_key');
      const why = err.code === '23502' ? 'it holds NULLs' : (err.detail ?? err.message ?? 'duplicate values');
      notes.push(`${t.from}: ${key.kind} (${key.from.join(', ')}) skipped: ${why}`);
    }
  }
  return made;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** Declared foreign keys as NOT VALID constraints, where the copy has a key they can point at. */
async function addForeignKeys(
  db: Database,
  client: pg.Client,
  tables: SourceTable[],
  keys: Map<SourceTable, Key[]>,
  notes: string[],
): Promise<void> {
  // SQLite matches the names in a REFERENCES clause without regard to ASCII case.
  const fold = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  const tableByName = new Map(tables.map((t) => [fold(t.from), t]));
  const columnOf = (t: SourceTable, name: string) => t.columns.find((c) => fold(c.from) === fold(name));
  for (const child of tables) {
    const groups = new Map<number, Row[]>();
    for (const r of rowsOf(db, `SELECT * FROM pragma_foreign_key_list(${sqlLiteral(child.from)}) ORDER BY id, seq`))
      groups.set(Number(r.id), [...(groups.get(Number(r.id)) ?? []), r]);
    for (const parts of groups.values()) {
      const parentName = str(parts[0].table);
      const fromNames = parts.map((p) => str(p.from));
      const what = `${child.from} (${fromNames.join(', ')}) -> ${parentName}`;
      const skip = (why: string) => notes.push(`foreign key ${what} skipped: ${why}`);
      const parent = tableByName.get(fold(parentName));
      if (!parent) {
        skip(`no table ${parentName} is copied`);
        continue;
      }
      const fromCols = fromNames.map((n) => columnOf(child, n));
      if (fromCols.some((c) => !c)) {
        skip(`${child.from} has no such column`);
        continue;
      }
      const toCols = parts.every((p) => p.to === null)
        ? parent.columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk)
        : parts.map((p) => columnOf(parent, str(p.to)));
      if (toCols.length !== fromCols.length || toCols.some((c) => !c)) {
        skip(`the referenced columns are not columns of ${parent.from}`);
        continue;
      }
      const toNames = toCols.map((c) => c!.to);
      if (!(keys.get(parent) ?? []).some((k) => sameSet(k.columns, toNames))) {
        skip(
          `(${toCols.map((c) => c!.from).join(', ')}) of ${parent.from} has no primary key or unique constraint in the copy`,
        );
        continue;
      }
      const actions = ['on_update', 'on_delete']
        .map((a) => [a, str(parts[0][a]).toUpperCase()] as const)
        .filter(([, v]) => /^(CASCADE|SET NULL|SET DEFAULT|RESTRICT)$/.test(v))
        .map(([a, v]) => ` ON ${a === 'on_update' ? 'UPDATE' : 'DELETE'} ${v}`)
        .join('');
      try {
        await client.query(
          `ALTER TABLE ${quoteIdent(child.to)} ADD FOREIGN KEY (${fromCols.map((c) => quoteIdent(c!.to)).join(', ')})` +
            ` REFERENCES ${quoteIdent(parent.to)} (${toNames.map(quoteIdent).join(', ')})${actions} NOT VALID`,
        );
      } catch (e) {
        const err = e as { code?: string; message?: string; detail?: string };
        if (!err.code) throw e;
        skip(err.detail ?? err.message ?? err.code);
      }
    }
  }
}
