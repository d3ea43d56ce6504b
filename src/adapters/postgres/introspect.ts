// The schema of a server database from its catalog, in four queries whatever the number of
// tables (a 200 × 50 schema reads in one round trip per kind): tables, views, materialised views
// and foreign tables of the schemas on the search path, their columns and types, keys, unique
// constraints and indexes, `COMMENT ON` text, and row counts from the planner's statistics
// (`reltuples`, exact for a table analysed when small), counted up to a cap where there are none.

import type { Affinity, ColumnInfo, ForeignKey, IndexInfo, Schema, SqlValue, TableInfo } from '../../core/types';
import type { ReadRunner } from './session';

/** A table or view without planner statistics is counted up to this many rows (then "about"). */
const COUNT_CAP = 1_000_000;
/** Tables the planner estimates below this many rows are counted exactly. */
const EXACT_BELOW = 10_000;

const str = (v: SqlValue) => (v === null ? '' : String(v));
const num = (v: SqlValue) => Number(v);
const positions = (v: SqlValue) => (v === null || v === '' ? [] : String(v).split(',').map(Number));

/** What SQLite's affinity rules would give a column of this type (by pg_type.typcategory). */
export function affinityOfPostgres(typeName: string, category: string): Affinity {
  if (category === 'N')
    return /^(smallint|integer|bigint|oid)$/.test(typeName)
      ? 'INTEGER'
      : /^(real|double precision)$/.test(typeName)
        ? 'REAL'
        : 'NUMERIC';
  if (typeName === 'bytea') return 'BLOB';
  return 'TEXT';
}

/** pg_type.typcategory as ColumnInfo.typeClass: S string, E enum, N numeric, D date/time, B boolean. */
export function typeClassOf(typeName: string, category: string): NonNullable<ColumnInfo['typeClass']> {
  if (category === 'N') return 'number';
  if (category === 'S' || category === 'E') return 'text';
  if (category === 'D') return 'date';
  if (category === 'B') return 'boolean';
  return typeName === 'bytea' ? 'bytes' : 'other';
}

export interface ServerTable extends TableInfo {
  /** pg_class oid: how statistics find it again. */
  oid: number;
  schemaName: string;
}

/** Tables with the schema each was found in (the first of the search path that has the name). */
export interface ServerSchema extends Schema {
  tables: Array<TableInfo & { schemaName: string }>;
}

export async function introspectServer(
  run: ReadRunner,
  schemas: readonly string[],
  quote: (s: string) => string,
): Promise<ServerSchema> {
  const tables = await readObjects(run, schemas, quote);
  const byOid = new Map(tables.map((t) => [t.oid, t]));
  const oids = tables.map((t) => t.oid);
  const nameOf = await addColumns(run, byOid, oids);
  const foreignKeys = await addConstraints(run, byOid, oids, schemas, nameOf);
  await addIndexes(run, byOid, oids, nameOf);
  for (const t of tables) if (t.rowCount === null) await countRows(run, t, quote);
  return { tables: tables.map(({ oid: _oid, ...t }) => t), foreignKeys };
}

type ByOid = Map<number, ServerTable>;
type NameOf = (rel: number, attnum: number) => string;

async function readObjects(
  run: ReadRunner,
  schemas: readonly string[],
  quote: (s: string) => string,
): Promise<ServerTable[]> {
  const objects = await run.rows(
    // The planner's estimate: rows per page at the last ANALYZE times the pages there are now.
    `SELECT c.oid, n.nspname, c.relname, c.relkind,
            CASE WHEN c.relkind = 'v' OR c.reltuples < 0 THEN -1
                 WHEN c.relpages > 0 THEN c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::int)
                 ELSE c.reltuples END::float8,
            obj_description(c.oid, 'pg_class'),
            CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) END
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
      ORDER BY array_position($1::text[], n.nspname::text), c.relname`,
    [schemas],
  );
  // A name in a later schema of the search path is shadowed by the first: only the first is reachable unqualified.
  const seen = new Set<string>();
  const tables: ServerTable[] = [];
  for (const [oid, schemaName, name, kind, reltuples, comment, viewSql] of objects) {
    if (seen.has(str(name))) continue;
    seen.add(str(name));
    tables.push({
      oid: num(oid),
      schemaName: str(schemaName),
      name: str(name),
      kind: kind === 'v' || kind === 'm' ? 'view' : 'table',
      sql: viewSql === null ? null : `CREATE VIEW ${quote(str(name))} AS ${str(viewSql).trim()}`,
      columns: [],
      primaryKey: [],
      withoutRowid: false,
      foreignKeys: [],
      indexes: [],
      // Small or unknown: counted exactly below (cheap); large: the estimate, said as "about".
      rowCount: num(reltuples) >= EXACT_BELOW ? Math.round(num(reltuples)) : null,
      ...(num(reltuples) >= EXACT_BELOW ? { rowCountEstimated: true as const } : {}),
      ...(comment !== null ? { comment: str(comment) } : {}),
    });
  }
  return tables;
}

/** Each table's columns; returns how a column number of a table is named. */
async function addColumns(run: ReadRunner, byOid: ByOid, oids: number[]): Promise<NameOf> {
  const columns = await run.rows(
    `SELECT a.attrelid, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), t.typcategory, a.attnotnull,
            pg_get_expr(d.adbin, d.adrelid), col_description(a.attrelid, a.attnum)
       FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attrelid, a.attnum`,
    [oids],
  );
  const columnNames = new Map<string, string>();
  for (const [rel, attnum, name, type, category, notNull, dflt, comment] of columns) {
    const t = byOid.get(num(rel));
    if (!t) continue;
    columnNames.set(`${num(rel)}:${num(attnum)}`, str(name));
    const column: ColumnInfo = {
      name: str(name),
      declaredType: str(type),
      affinity: affinityOfPostgres(str(type), str(category)),
      typeClass: typeClassOf(str(type), str(category)),
      notNull: notNull === 'true',
      defaultValue: dflt === null ? null : str(dflt),
      pkIndex: 0,
      hidden: false,
      ...(comment !== null ? { comment: str(comment) } : {}),
    };
    t.columns.push(column);
  }
  return (rel, attnum) => columnNames.get(`${rel}:${attnum}`) ?? `#${attnum}`;
}

/** Primary keys, unique constraints and foreign keys; returns every foreign key. */
async function addConstraints(
  run: ReadRunner,
  byOid: ByOid,
  oids: number[],
  schemas: readonly string[],
  nameOf: NameOf,
): Promise<ForeignKey[]> {
  const constraints = await run.rows(
    `SELECT con.conrelid, con.contype, con.conname, array_to_string(con.conkey, ','), con.confrelid,
            array_to_string(con.confkey, ','), con.confupdtype, con.confdeltype,
            CASE WHEN fn.nspname = ANY($2::text[]) THEN fc.relname ELSE fn.nspname || '.' || fc.relname END
       FROM pg_constraint con
       LEFT JOIN pg_class fc ON fc.oid = con.confrelid LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace
      WHERE con.conrelid = ANY($1::oid[]) AND con.contype IN ('p', 'u', 'f')
      ORDER BY con.conrelid, con.conname`,
    [oids, schemas],
  );
  const foreignKeys: ForeignKey[] = [];
  const fkIds = new Map<number, number>();
  for (const [rel, type, conname, conkey, confrel, confkey, onUpdate, onDelete, refTable] of constraints) {
    const t = byOid.get(num(rel));
    if (!t) continue;
    const cols = positions(conkey).map((a) => nameOf(num(rel), a));
    if (type === 'p') {
      t.primaryKey = cols;
      cols.forEach((c, i) => {
        const column = t.columns.find((x) => x.name === c);
        if (column) column.pkIndex = i + 1;
      });
      t.indexes.push({ name: str(conname), unique: true, origin: 'pk', columns: cols, partial: false });
    } else if (type === 'u') {
      t.indexes.push({ name: str(conname), unique: true, origin: 'u', columns: cols, partial: false });
    } else {
      const id = fkIds.get(num(rel)) ?? 0;
      fkIds.set(num(rel), id + 1);
      const fk: ForeignKey = {
        id,
        table: t.name,
        from: cols,
        refTable: str(refTable),
        to: positions(confkey).map((a) => nameOf(num(confrel), a)),
        onUpdate: ACTIONS[str(onUpdate)] ?? 'NO ACTION',
        onDelete: ACTIONS[str(onDelete)] ?? 'NO ACTION',
      };
      t.foreignKeys.push(fk);
      foreignKeys.push(fk);
    }
  }
  return foreignKeys;
}

/** Indexes other than those of the keys and unique constraints (listed with them). */
async function addIndexes(run: ReadRunner, byOid: ByOid, oids: number[], nameOf: NameOf): Promise<void> {
  const indexes = await run.rows(
    `SELECT i.indrelid, ic.relname, i.indisunique, array_to_string(i.indkey::int2[], ','), i.indpred IS NOT NULL,
            (SELECT string_agg(op.opcname, ',') FROM unnest(i.indclass::oid[]) AS k(oid) JOIN pg_opclass op ON op.oid = k.oid)
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
      WHERE i.indrelid = ANY($1::oid[]) AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u'))
      ORDER BY i.indrelid, ic.relname`,
    [oids],
  );
  for (const [rel, name, unique, keys, partial, opclasses] of indexes) {
    const t = byOid.get(num(rel));
    if (!t) continue;
    const key = positions(keys);
    // A trigram index on the plain column, whole: search_value asks the server for that column.
    if (key.length === 1 && key[0] > 0 && partial !== 'true' && TRIGRAM_OPCLASSES.has(str(opclasses))) {
      const column = t.columns.find((c) => c.name === nameOf(num(rel), key[0]));
      if (column?.typeClass === 'text') column.textIndex = 'trigram';
    }
    const index: IndexInfo = {
      name: str(name),
      unique: unique === 'true',
      origin: 'c',
      // 0 is an expression: named as such, not as a column.
      columns: positions(keys).map((a) => (a === 0 ? '(expression)' : nameOf(num(rel), a))),
      partial: partial === 'true',
    };
    t.indexes.push(index);
  }
}

/** pg_trgm's operator classes: an index of either answers ILIKE '%…%' and `%` (similarity) on its column. */
const TRIGRAM_OPCLASSES = new Set(['gin_trgm_ops', 'gist_trgm_ops']);

const ACTIONS: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

/** Views and never-analysed tables: counted up to COUNT_CAP rows; a view that fails says why. */
async function countRows(run: ReadRunner, t: ServerTable, quote: (s: string) => string): Promise<void> {
  // A view that fails must not abort the transaction the rest of the schema is read in.
  await run.rows('SAVEPOINT dowser_count');
  try {
    const [[n]] = await run.rows(
      `SELECT count(*) FROM (SELECT 1 FROM ${quote(t.schemaName)}.${quote(t.name)} LIMIT ${COUNT_CAP + 1}) s`,
    );
    t.rowCount = Math.min(num(n), COUNT_CAP);
    if (num(n) > COUNT_CAP) t.rowCountEstimated = true;
    else delete t.rowCountEstimated;
  } catch (e) {
    await run.rows('ROLLBACK TO SAVEPOINT dowser_count');
    t.error = e instanceof Error ? e.message : String(e);
  }
}
