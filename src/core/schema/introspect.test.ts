import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { nestedViewsDb } from '../../test-support/hostile-dbs';
import { executorFor } from '../executor';
import { quoteIdent } from '../sql/quote';
import type { QueryOptions, Schema, TableInfo } from '../types';
import { affinityOf } from './affinity';
import { introspect, isWithoutRowid, mergeSchema, virtualModule } from './introspect';

const WEIRD_TABLE = 'Order Items "v2" – größe';
const WEIRD_COLUMNS = ['Unit Price', 'say "hi"', 'select', 'MixedCase', '名前', "it's"];

const SQL = `
CREATE TABLE parent (a INTEGER, b TEXT, label TEXT NOT NULL DEFAULT 'none', PRIMARY KEY (b, a));
CREATE TABLE child (
  id INTEGER PRIMARY KEY,
  pa INTEGER, pb TEXT,
  sibling_id INTEGER REFERENCES child,
  FOREIGN KEY (pb, pa) REFERENCES parent (b, a) ON DELETE CASCADE
);
CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB, note TEXT DEFAULT '--x', n INTEGER) WITHOUT ROWID;
CREATE TABLE strict_kv (k TEXT PRIMARY KEY, v INT) STRICT, WITHOUT ROWID;
CREATE TABLE tricky (a TEXT DEFAULT ') WITHOUT ROWID', b) ;
CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT, favourite_book INTEGER REFERENCES book(id));
CREATE TABLE book (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES author(id), title VARCHAR(20) UNIQUE);
CREATE INDEX book_by_author ON book (author_id, title);
CREATE INDEX book_lower ON book (lower(title)) WHERE title IS NOT NULL;
CREATE TABLE types (
  i INTEGER, v VARCHAR(20), bl BLOB, none_, d DOUBLE, dec DECIMAL(10,2), dt DATETIME, f FLOAT, c CLOB,
  created TEXT DEFAULT CURRENT_TIMESTAMP, qty INTEGER NOT NULL DEFAULT 0,
  twice INTEGER GENERATED ALWAYS AS (i * 2) VIRTUAL, stored_upper TEXT AS (upper(v)) STORED
);
CREATE TABLE ${quoteIdent(WEIRD_TABLE)} (${WEIRD_COLUMNS.map((c) => `${quoteIdent(c)} TEXT`).join(', ')});
INSERT INTO ${quoteIdent(WEIRD_TABLE)} VALUES ('1.50', 'q"q', 'kw', 'MC', '名', 'x'), ('2', NULL, 'kw', 'mc', '名', 'y');
INSERT INTO parent VALUES (1, 'x', 'one'), (2, 'y', 'two');
INSERT INTO child VALUES (1, 1, 'x', NULL), (2, 2, 'y', 1);
INSERT INTO author VALUES (1, 'Ann', NULL);
INSERT INTO book VALUES (1, 1, 'B1'), (2, 1, 'B2');
CREATE VIEW author_books AS SELECT a.name, count(*) AS books FROM author a JOIN book b ON b.author_id = a.id GROUP BY a.id;
CREATE VIEW book_copy AS SELECT * FROM book;
`;

let engine: SqljsEngine;
let schema: Schema;
const table = (name: string): TableInfo => {
  const t = schema.tables.find((x) => x.name === name);
  if (!t) throw new Error(`no table ${name}`);
  return t;
};

beforeAll(async () => {
  engine = await createNodeEngine();
  // A view is checked only when created: dropping the table it reads leaves a view that fails.
  const bytes = await buildDb(
    SQL + 'CREATE TABLE gone (x); CREATE VIEW dangling AS SELECT x FROM gone; DROP TABLE gone;',
  );
  await engine.open({ id: 'db', name: 'i.sqlite', bytes });
  schema = await engine.introspect('db');
});
afterAll(() => engine.close('db'));

describe('introspect', () => {
  it('lists tables (by name, case-insensitively) before views, without sqlite_ internals', () => {
    expect(schema.tables.map((t) => [t.name, t.kind])).toEqual([
      ['author', 'table'],
      ['book', 'table'],
      ['child', 'table'],
      ['kv', 'table'],
      [WEIRD_TABLE, 'table'],
      ['parent', 'table'],
      ['strict_kv', 'table'],
      ['tricky', 'table'],
      ['types', 'table'],
      ['author_books', 'view'],
      ['book_copy', 'view'],
      ['dangling', 'view'],
    ]);
  });

  it('gives a composite primary key in key order, not column order', () => {
    expect(table('parent').primaryKey).toEqual(['b', 'a']);
    expect(table('parent').columns.map((c) => [c.name, c.pkIndex])).toEqual([
      ['a', 2],
      ['b', 1],
      ['label', 0],
    ]);
  });

  it('detects WITHOUT ROWID, also after STRICT and not inside a default value', () => {
    expect(table('kv').withoutRowid).toBe(true);
    expect(table('strict_kv').withoutRowid).toBe(true);
    expect(table('tricky').withoutRowid).toBe(false);
    expect(table('parent').withoutRowid).toBe(false);
  });

  it('finds foreign keys both ways between two tables', () => {
    expect(table('author').foreignKeys).toEqual([
      expect.objectContaining({ table: 'author', from: ['favourite_book'], refTable: 'book', to: ['id'] }),
    ]);
    expect(table('book').foreignKeys).toEqual([
      expect.objectContaining({ table: 'book', from: ['author_id'], refTable: 'author', to: ['id'] }),
    ]);
  });

  it('pairs the columns of a multi-column foreign key in declaration order', () => {
    const fk = table('child').foreignKeys.find((f) => f.refTable === 'parent');
    expect(fk).toMatchObject({ from: ['pb', 'pa'], to: ['b', 'a'], onDelete: 'CASCADE', onUpdate: 'NO ACTION' });
  });

  it("resolves a foreign key declared without columns to the referenced table's primary key", () => {
    const fk = table('child').foreignKeys.find((f) => f.refTable === 'child');
    expect(fk).toMatchObject({ from: ['sibling_id'], to: ['id'] });
  });

  it('collects every foreign key in schema.foreignKeys', () => {
    expect(schema.foreignKeys).toHaveLength(4);
  });

  it('lists indexes with uniqueness, origin, columns and partial flag', () => {
    const byName = Object.fromEntries(table('book').indexes.map((ix) => [ix.name, ix]));
    expect(byName.book_by_author).toMatchObject({
      unique: false,
      origin: 'c',
      columns: ['author_id', 'title'],
      partial: false,
    });
    expect(byName.book_lower).toMatchObject({ unique: false, origin: 'c', columns: ['<expression>'], partial: true });
    const uniqueTitle = table('book').indexes.find((ix) => ix.origin === 'u');
    expect(uniqueTitle).toMatchObject({ unique: true, columns: ['title'] });
    expect(table('parent').indexes).toEqual([
      expect.objectContaining({ origin: 'pk', unique: true, columns: ['b', 'a'] }),
    ]);
  });

  it('gives declared types, affinities, defaults and NOT NULL', () => {
    const cols = Object.fromEntries(table('types').columns.map((c) => [c.name, c]));
    expect(Object.fromEntries(Object.entries(cols).map(([n, c]) => [n, [c.declaredType, c.affinity]]))).toMatchObject({
      i: ['INTEGER', 'INTEGER'],
      v: ['VARCHAR(20)', 'TEXT'],
      bl: ['BLOB', 'BLOB'],
      none_: ['', 'BLOB'],
      d: ['DOUBLE', 'REAL'],
      dec: ['DECIMAL(10,2)', 'NUMERIC'],
      dt: ['DATETIME', 'NUMERIC'],
      f: ['FLOAT', 'REAL'],
      c: ['CLOB', 'TEXT'],
    });
    expect(cols.created.defaultValue).toBe('CURRENT_TIMESTAMP');
    expect(cols.qty).toMatchObject({ notNull: true, defaultValue: '0' });
    expect(cols.i).toMatchObject({ notNull: false, defaultValue: null });
    expect(table('parent').columns[2]).toMatchObject({ name: 'label', notNull: true, defaultValue: "'none'" });
  });

  it('keeps generated columns (virtual and stored) as readable columns', () => {
    const names = table('types').columns.map((c) => c.name);
    expect(names).toContain('twice');
    expect(names).toContain('stored_upper');
    expect(table('types').columns.find((c) => c.name === 'twice')).toMatchObject({
      hidden: false,
      affinity: 'INTEGER',
    });
  });

  it('gives views their columns and row counts, and a failing view an error', () => {
    expect(table('author_books')).toMatchObject({ rowCount: 1, foreignKeys: [], indexes: [] });
    expect(table('author_books').columns.map((c) => c.name)).toEqual(['name', 'books']);
    expect(table('book_copy').rowCount).toBe(2);
    expect(table('dangling')).toMatchObject({
      rowCount: null,
      error: expect.stringContaining('no such table: main.gone'),
    });
  });

  it('counts rows of tables', () => {
    expect([
      table('parent').rowCount,
      table('child').rowCount,
      table('kv').rowCount,
      table(WEIRD_TABLE).rowCount,
    ]).toEqual([2, 2, 0, 2]);
  });
});

describe('identifiers with spaces, quotes, unicode, keywords and mixed case', () => {
  it('introspects them exactly', () => {
    expect(table(WEIRD_TABLE).columns.map((c) => c.name)).toEqual(WEIRD_COLUMNS);
  });

  it('computes statistics for every column', async () => {
    for (const column of WEIRD_COLUMNS) {
      const st = await engine.columnStats('db', WEIRD_TABLE, column);
      expect(st).toMatchObject({ table: WEIRD_TABLE, column, rowsScanned: 2 });
    }
    expect(await engine.columnStats('db', WEIRD_TABLE, 'say "hi"')).toMatchObject({ nullCount: 1, distinctCount: 1 });
  });

  it('runs a SELECT built with quoteIdent', async () => {
    const sql = `SELECT ${WEIRD_COLUMNS.map(quoteIdent).join(', ')} FROM ${quoteIdent(WEIRD_TABLE)} WHERE ${quoteIdent('select')} = 'kw' ORDER BY 1`;
    const r = await engine.query('db', sql);
    expect(r.columns).toEqual(WEIRD_COLUMNS);
    expect(r.rows[0]).toEqual(['1.50', 'q"q', 'kw', 'MC', '名', 'x']);
  });
});

describe('introspect helpers', () => {
  it('isWithoutRowid reads the table options, ignoring strings and comments', () => {
    expect(isWithoutRowid('CREATE TABLE t (a PRIMARY KEY) WITHOUT ROWID')).toBe(true);
    expect(isWithoutRowid('CREATE TABLE t (a PRIMARY KEY) without   rowid , strict')).toBe(true);
    expect(isWithoutRowid("CREATE TABLE t (a DEFAULT '--', b PRIMARY KEY) WITHOUT ROWID")).toBe(true);
    expect(isWithoutRowid('CREATE TABLE t (a PRIMARY KEY) /* WITHOUT ROWID */')).toBe(false);
    expect(isWithoutRowid('CREATE TABLE t (a CHECK (a <> 1)) -- WITHOUT ROWID\n')).toBe(false);
    expect(isWithoutRowid(null)).toBe(false);
  });

  it('virtualModule names the module of a virtual table', () => {
    expect(virtualModule('CREATE VIRTUAL TABLE docs USING fts5(body)')).toBe('fts5');
    expect(virtualModule('CREATE VIRTUAL TABLE x USING "rtree"(id, a, b)')).toBe('rtree');
    expect(virtualModule('CREATE TABLE x (a)')).toBeNull();
  });

  it('affinityOf follows SQLite rules in their order', () => {
    expect(
      [
        'INT',
        'TINYINT',
        'CHARINT',
        'NVARCHAR(5)',
        'TEXT',
        'BLOB',
        '',
        'REAL',
        'FLOATING POINT',
        'NUMERIC',
        'BOOLEAN',
        'DATE',
      ].map(affinityOf),
    ).toEqual([
      'INTEGER',
      'INTEGER',
      'INTEGER',
      'TEXT',
      'TEXT',
      'BLOB',
      'BLOB',
      'REAL',
      'INTEGER',
      'NUMERIC',
      'NUMERIC',
      'NUMERIC',
    ]);
  });
});

describe('introspection within a time budget', () => {
  let engine: SqljsEngine;
  beforeAll(async () => {
    engine = await createNodeEngine();
    await engine.open({ id: 'views', name: 'v.sqlite', bytes: await nestedViewsDb(30) });
  });
  const exec = () => executorFor(engine, 'views');

  it('lists every object and reads details until the budget runs out (at least one per call)', async () => {
    let clock = 0;
    // Every read query moves the clock 10 ms on: the budget of 25 ms covers the first objects only.
    const ticking = { query: (sql: string, o?: QueryOptions) => ((clock += 10), exec().query(sql, o)) };
    const s = await introspect(ticking, { budgetMs: 25, now: () => clock });
    expect(s.tables).toHaveLength(31);
    const read = s.tables.filter((t) => !t.skipped);
    expect(read.length).toBeGreaterThanOrEqual(1);
    expect(read.length).toBeLessThan(5);
    expect(s.incomplete).toEqual({ skipped: 31 - read.length, budgetMs: 25 });
    const skipped = s.tables.find((t) => t.skipped)!;
    expect(skipped).toMatchObject({ columns: [], rowCount: null, sql: null, foreignKeys: [] });

    // The skipped ones, read in a later call and merged in, complete the schema.
    const rest = await introspect(exec(), { only: s.tables.filter((t) => t.skipped).map((t) => t.name) });
    const merged = mergeSchema(s, rest);
    expect(merged.incomplete).toBeUndefined();
    expect(merged.tables.map((t) => t.name)).toEqual(s.tables.map((t) => t.name));
    expect(merged.tables.every((t) => t.columns.length === 1 && t.rowCount === 2)).toBe(true);
  });

  it('reads at most maxObjects, and counts no views when told not to', async () => {
    const s = await introspect(exec(), { maxObjects: 5, countViews: false });
    expect(s.tables.filter((t) => !t.skipped)).toHaveLength(5);
    expect(s.incomplete?.skipped).toBe(26);
    expect(s.tables.find((t) => t.name === 'base')?.rowCount).toBe(2);
    const views = s.tables.filter((t) => t.kind === 'view' && !t.skipped);
    expect(views.length).toBeGreaterThan(0);
    expect(views.every((t) => t.rowCount === null)).toBe(true);
  });

  it('nothing skipped within the default budget: no incomplete mark', async () => {
    expect((await introspect(exec())).incomplete).toBeUndefined();
  });
});

describe('introspect, a key declared twice', () => {
  it('lists a foreign key declared inline and again as a constraint once', async () => {
    const e = await createNodeEngine();
    const bytes = await buildDb(
      'CREATE TABLE o (id INTEGER PRIMARY KEY); CREATE TABLE d (owner_id INTEGER REFERENCES o(id), other INTEGER REFERENCES o(id), FOREIGN KEY (owner_id) REFERENCES o(id));',
    );
    await e.open({ id: 'twice', name: 'twice.sqlite', bytes });
    const s = await e.introspect('twice');
    const d = s.tables.find((t) => t.name === 'd')!;
    expect(d.foreignKeys.map((fk) => fk.from[0])).toEqual(['owner_id', 'other']);
  });
});

describe('row counts of very large tables (exactRowsUpTo)', () => {
  it('counts up to the limit, then estimates from the rowid range and says so; WITHOUT ROWID tables are counted', async () => {
    const engine = await createNodeEngine();
    await engine.open({
      id: 'n',
      name: 'n.sqlite',
      bytes: await buildDb(`
        CREATE TABLE few (id INTEGER PRIMARY KEY);
        CREATE TABLE many (id INTEGER PRIMARY KEY, v TEXT);
        CREATE TABLE keyed (k TEXT PRIMARY KEY) WITHOUT ROWID;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12)
        INSERT INTO many SELECT i, 'x' FROM n;
        INSERT INTO few VALUES (1), (2);
        DELETE FROM many WHERE id = 5;
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9)
        INSERT INTO keyed SELECT 'k' || i FROM n;`),
    });
    const schema = await introspect(executorFor(engine, 'n'), { exactRowsUpTo: 5 });
    const byName = (n: string) => schema.tables.find((t) => t.name === n)!;
    expect([byName('few').rowCount, byName('few').rowCountEstimated]).toEqual([2, undefined]);
    // 11 rows with ids 1..12: the estimate is the range, and it is marked as one.
    expect([byName('many').rowCount, byName('many').rowCountEstimated]).toEqual([12, true]);
    expect([byName('keyed').rowCount, byName('keyed').rowCountEstimated]).toEqual([9, undefined]);
    const exact = await introspect(executorFor(engine, 'n'));
    expect(exact.tables.find((t) => t.name === 'many')!.rowCount).toBe(11);
  });
});
