import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import type { Schema } from '../types';
import { extractValues } from './distinct-values';
import { ValueIndexBuilder, type ValueIndex } from './value-index';

const SQL = `
CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city VARCHAR(30), age INTEGER, note, born DATE);
INSERT INTO people VALUES
  (1, 'Ada', 'Paris', 36, 'x', '1990-01-02'),
  (2, 'Bo', 'Paris', 41, 7, 1990),
  (3, 'Cy', NULL, 19, NULL, NULL),
  (4, 'Ada', 'Oslo', 22, 'y', '1991-03-04'),
  (5, NULL, 'paris', 50, 3.5, NULL);
CREATE TABLE "odd ""table""" ("my col" TEXT, "select" TEXT);
INSERT INTO "odd ""table""" VALUES ('a "quoted" value', 'x'), ('a "quoted" value', 'y');
CREATE TABLE nums (a INTEGER, b REAL);
INSERT INTO nums VALUES (1, 2.5);
CREATE TABLE codes (code TEXT PRIMARY KEY, label TEXT) WITHOUT ROWID;
INSERT INTO codes VALUES ('A1', 'alpha'), ('B2', 'beta'), ('C3', 'alpha'), ('D4', 'delta'), ('E5', 'alpha'), ('F6', 'beta'), ('G7', 'gamma');
CREATE TABLE shadowed (rowid TEXT, _rowid_ TEXT, oid TEXT, x TEXT);
INSERT INTO shadowed VALUES ('r1', 'r2', 'o', 'one'), ('r1', 'r2', 'o', 'two'), ('r1', 'r2', 'o', 'three'), ('r1', 'r2', 'o', 'four');
CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, plan TEXT);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 12000)
INSERT INTO users SELECT n, 'user' || n || '@example.com', CASE n % 3 WHEN 0 THEN 'free' WHEN 1 THEN 'pro' ELSE 'team' END FROM c;
CREATE TABLE reviews (body TEXT);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 50)
INSERT INTO reviews SELECT 'review number ' || n || ' says the parcel was ' || CASE n WHEN 37 THEN 'soggy' ELSE 'fine' END || ' ' || printf('%.150c', 'z') FROM c;
INSERT INTO reviews SELECT body FROM reviews WHERE rowid = 5;
CREATE TABLE tags (tag TEXT);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000)
INSERT INTO tags SELECT CASE WHEN n <= 40 THEN 'hot' WHEN n <= 60 THEN 'warm' ELSE 'tag' || (n % 300) END FROM c;
CREATE TABLE notes (t TEXT);
INSERT INTO notes VALUES ('ok'), ('ok'), ('no'), ('no'), ('one outlier of 31 characters...');
CREATE VIEW paris_people AS SELECT name FROM people WHERE city = 'Paris';
`;

let engine: SqljsEngine;
let exec: SqlExecutor;
let schema: Schema;
let index: ValueIndex;

async function buildIndex(options: Parameters<typeof extractValues>[3] = {}, s: Schema = schema): Promise<ValueIndex> {
  const builder = new ValueIndexBuilder();
  await extractValues(exec, s, builder, options);
  return builder.finish();
}

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'db', name: 'v.sqlite', bytes: await buildDb(SQL) });
  exec = executorFor(engine, 'db');
  schema = await engine.introspect('db');
  index = await buildIndex({ pageSize: 2 });
});
afterAll(() => engine.close('db'));

const summary = (table: string, column: string) => index.columns.find((c) => c.table === table && c.column === column);
const rowsOf = (value: string, table: string, column: string) =>
  index.search(value, { table, column, k: 20 }).find((h) => h.value === value)?.rows;

describe('extractValues into the value index', () => {
  it('counts each text value once per row, ignoring NULLs and values that are not text', () => {
    expect(rowsOf('Ada', 'people', 'name')).toBe(2);
    expect(rowsOf('Paris', 'people', 'city')).toBe(2);
    expect(rowsOf('paris', 'people', 'city')).toBe(1);
    expect(summary('people', 'name')).toMatchObject({ values: 3, rowsScanned: 5, policy: 'all' });
    // 'note' has no declared type: only its text cells count
    expect(summary('people', 'note')).toMatchObject({ values: 2 });
    expect(index.columns.some((c) => c.table === 'nums')).toBe(false);
    expect(index.columns.some((c) => c.table === 'paris_people')).toBe(false);
  });

  it('builds the same index when the engine scans rows in place (UTF-8 bytes, decision 015)', async () => {
    const scanning: SqlExecutor = { ...exec, scan: (sql, params, visit) => engine.scan('db', sql, params, visit) };
    const builder = new ValueIndexBuilder();
    await extractValues(scanning, schema, builder, { pageSize: 2 });
    const scanned = await builder.finish();
    expect(scanned.columns).toEqual(index.columns);
    for (const q of ['Ada', 'paris', 'alpha', 'one', 'soggy', 'user77@example.com', 'hot', 'a "quoted" value', 'tag12'])
      expect(await scanned.search(q, { k: 10 }), q).toEqual(await index.search(q, { k: 10 }));
  });

  it('reads WITHOUT ROWID tables and tables whose columns hide rowid, page by page', () => {
    expect(rowsOf('alpha', 'codes', 'label')).toBe(3);
    expect(summary('codes', 'code')).toMatchObject({ values: 7 });
    expect(rowsOf('one', 'shadowed', 'x')).toBe(1);
    expect(rowsOf('r1', 'shadowed', 'rowid')).toBe(4);
  });

  it('indexes every value of unique-looking columns, and values only the last rows hold', () => {
    expect(summary('users', 'email')).toMatchObject({ values: 12_000, policy: 'all' });
    expect(index.search('user11999@example.com')[0]).toMatchObject({ value: 'user11999@example.com', rows: 1 });
    expect(rowsOf('team', 'users', 'plan')).toBe(4000);
    expect(rowsOf('tag299', 'tags', 'tag')).toBe(10);
  });

  it('keeps long texts out of memory and reads back the ones a search finds, by rowid', async () => {
    expect(summary('reviews', 'body')).toMatchObject({ values: 0, texts: 50 });
    const hits = await index.searchAll(exec, 'soggy parcel');
    expect(hits[0]).toMatchObject({ table: 'reviews', column: 'body', match: 'text', rows: 1 });
    expect(hits[0].value).toMatch(/^review number 37 says the parcel was soggy z+$/);
    const repeated = await index.searchAll(exec, 'review number 5 ', { table: 'reviews' });
    expect(repeated.find((h) => h.value.startsWith('review number 5 '))?.rows).toBe(2);
  });

  it('reads on past a page that stopped at the result byte budget (wide rows of long texts)', async () => {
    // Pages end at the byte budget long before pageSize rows: the scan must not take that for
    // the end of the table (it once did, and values past the first page went missing).
    const small: SqlExecutor = { query: (sql, o) => exec.query(sql, { ...o, maxResultBytes: 4_000 }) };
    const builder = new ValueIndexBuilder();
    await extractValues(small, schema, builder, { pageSize: 50_000 });
    const capped = await builder.finish();
    expect(capped.columns.find((s) => s.table === 'users' && s.column === 'email')).toMatchObject({
      values: 12_000,
    });
    expect(capped.search('user11999@example.com')[0]).toMatchObject({ value: 'user11999@example.com' });
    const hits = await capped.searchAll(exec, 'soggy parcel');
    expect(hits[0].value).toMatch(/^review number 37 says the parcel was soggy/);
  });
  it('leaves date/time values to SQL and says so', () => {
    expect(summary('people', 'born')).toMatchObject({ values: 0, dates: 2, policy: 'partial' });
  });

  it('reports progress up to the total and can be cancelled', async () => {
    const seen: Array<[number, number]> = [];
    await buildIndex({ pageSize: 5000, onProgress: (d, t) => seen.push([d, t]) });
    const [lastDone, total] = seen[seen.length - 1];
    expect(lastDone).toBe(total);
    expect(total).toBeGreaterThan(12000);
    expect(seen.every(([d], i) => i === 0 || d >= seen[i - 1][0])).toBe(true);

    const ctrl = new AbortController();
    ctrl.abort();
    await expect(buildIndex({ signal: ctrl.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('skips a table it cannot read instead of failing', async () => {
    const broken: Schema = {
      ...schema,
      tables: [...schema.tables, { ...schema.tables[0], name: 'gone', rowCount: 3 }],
    };
    const all = await buildIndex({}, broken);
    expect(all.columns.find((c) => c.table === 'gone')).toMatchObject({ values: 0, rowsScanned: 0 });
    expect(all.columns.find((c) => c.table === 'people' && c.column === 'name')).toMatchObject({ values: 3 });
  });
});
