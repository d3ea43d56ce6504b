import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import type { Schema } from '../types';
import { extractDistinctValues } from './distinct-values';
import type { DistinctColumnValues } from './types';

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
INSERT INTO reviews SELECT 'review ' || n || ' ' || printf('%.300c', 'z') FROM c;
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

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'db', name: 'v.sqlite', bytes: await buildDb(SQL) });
  exec = executorFor(engine, 'db');
  schema = await engine.introspect('db');
});
afterAll(() => engine.close('db'));

const find = (all: DistinctColumnValues[], table: string, column: string) =>
  all.find((c) => c.table === table && c.column === column);
const asMap = (c: DistinctColumnValues | undefined) =>
  Object.fromEntries((c?.values ?? []).map((v, i) => [v, c!.counts[i]]));

describe('extractDistinctValues', () => {
  it('counts each text value once per row, ignoring NULLs and values that are not text', async () => {
    const all = await extractDistinctValues(exec, schema, { pageSize: 2 });
    expect(asMap(find(all, 'people', 'name'))).toEqual({ Ada: 2, Bo: 1, Cy: 1 });
    expect(asMap(find(all, 'people', 'city'))).toEqual({ Paris: 2, Oslo: 1, paris: 1 });
    // no declared type (BLOB affinity) and DATE (NUMERIC affinity): only the strings count
    expect(asMap(find(all, 'people', 'note'))).toEqual({ x: 1, y: 1 });
    expect(asMap(find(all, 'people', 'born'))).toEqual({ '1990-01-02': 1, '1991-03-04': 1 });
    expect(find(all, 'people', 'name')).toMatchObject({ policy: 'all', rowsScanned: 5 });
  });

  it('leaves out integer columns, tables without text columns and views', async () => {
    const all = await extractDistinctValues(exec, schema);
    expect(find(all, 'people', 'age')).toBeUndefined();
    expect(all.some((c) => c.table === 'nums')).toBe(false);
    expect(all.some((c) => c.table === 'paris_people')).toBe(false);
  });

  it('quotes identifiers with spaces, quotes and keywords', async () => {
    const all = await extractDistinctValues(exec, schema);
    expect(asMap(find(all, 'odd "table"', 'my col'))).toEqual({ 'a "quoted" value': 2 });
    expect(asMap(find(all, 'odd "table"', 'select'))).toEqual({ x: 1, y: 1 });
  });

  it('reads WITHOUT ROWID tables and tables whose columns hide rowid, page by page', async () => {
    const all = await extractDistinctValues(exec, schema, { pageSize: 3 });
    expect(asMap(find(all, 'codes', 'label'))).toEqual({ alpha: 3, beta: 2, delta: 1, gamma: 1 });
    expect(find(all, 'codes', 'code')?.values).toHaveLength(7);
    expect(asMap(find(all, 'shadowed', 'x'))).toEqual({ one: 1, two: 1, three: 1, four: 1 });
    expect(asMap(find(all, 'shadowed', 'rowid'))).toEqual({ r1: 4 });
  });

  it('sends unique-looking columns to LIKE and keeps low-cardinality ones of the same table', async () => {
    const all = await extractDistinctValues(exec, schema);
    const email = find(all, 'users', 'email')!;
    expect(email).toMatchObject({ policy: 'like-fallback', values: [], counts: [], rowsScanned: 12000 });
    expect(email.note).toMatch(/unique-looking/);
    expect(asMap(find(all, 'users', 'plan'))).toEqual({ free: 4000, pro: 4000, team: 4000 });
  });

  it('sends long text to LIKE', async () => {
    const all = await extractDistinctValues(exec, schema);
    const body = find(all, 'reviews', 'body')!;
    expect(body).toMatchObject({ policy: 'like-fallback', values: [] });
    expect(body.note).toMatch(/average 3\d\d characters/);
  });

  it('samples the most frequent values of a column with too many', async () => {
    const all = await extractDistinctValues(exec, schema, { maxValuesPerColumn: 100 });
    const tags = find(all, 'tags', 'tag')!;
    expect(tags.policy).toBe('sampled');
    expect(tags.values).toHaveLength(100);
    expect(tags.values.slice(0, 2)).toEqual(['hot', 'warm']);
    expect(tags.counts.slice(0, 2)).toEqual([40, 20]);
    // past twice the cap only the values already held are counted, so their counts stay exact
    expect(new Set(tags.counts.slice(2))).toEqual(new Set([10]));
    expect(tags.note).toMatch(/more than 200 distinct values: the 100 most frequent in the first 259 rows are indexed/);

    const wider = find(await extractDistinctValues(exec, schema, { maxValuesPerColumn: 200 }), 'tags', 'tag')!;
    expect(wider).toMatchObject({ policy: 'sampled' });
    expect(wider.values).toHaveLength(200);
    expect(wider.note).toMatch(
      /^302 distinct values: the 200 most frequent are indexed; the rest is searched with LIKE\.$/,
    );
  });

  it('samples tables cut by the row budget and says so', async () => {
    const all = await extractDistinctValues(exec, schema, { rowBudgetPerTable: 1000, pageSize: 400 });
    const plan = find(all, 'users', 'plan')!;
    expect(plan).toMatchObject({ policy: 'sampled', rowsScanned: 1000 });
    expect(plan.note).toMatch(/only the first 1,000 of 12,000 rows/);
    expect(find(all, 'people', 'name')?.policy).toBe('all');
  });

  it('skips values longer than the limit in a short-valued column and reports them', async () => {
    const all = await extractDistinctValues(exec, schema, { maxValueLength: 10 });
    const notes = find(all, 'notes', 't')!;
    expect(notes.policy).toBe('sampled');
    expect(asMap(notes)).toEqual({ ok: 2, no: 2 });
    expect(notes.note).toMatch(/1 value longer than 10 characters is not indexed/);
  });

  it('reports progress up to the total and can be cancelled', async () => {
    const seen: Array<[number, number]> = [];
    await extractDistinctValues(exec, schema, { pageSize: 5000, onProgress: (d, t) => seen.push([d, t]) });
    const [lastDone, total] = seen[seen.length - 1];
    expect(lastDone).toBe(total);
    expect(total).toBeGreaterThan(12000);
    expect(seen.every(([d], i) => i === 0 || d >= seen[i - 1][0])).toBe(true);

    const ctrl = new AbortController();
    ctrl.abort();
    await expect(extractDistinctValues(exec, schema, { signal: ctrl.signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
  });

  it('skips a table it cannot read instead of failing', async () => {
    const broken: Schema = {
      ...schema,
      tables: [...schema.tables, { ...schema.tables[0], name: 'gone', rowCount: 3 }],
    };
    const all = await extractDistinctValues(exec, broken);
    expect(all.some((c) => c.table === 'gone')).toBe(false);
    expect(find(all, 'people', 'name')).toBeDefined();
  });
});
