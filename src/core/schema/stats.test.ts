import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import { columnStats, isRowidAlias, MAX_CATEGORIES, rowidAliasStats } from './stats';

const LONG = 'x'.repeat(500);

const SQL = `
CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT, age INTEGER, score REAL, joined TEXT, bio TEXT, photo BLOB, mixed);
INSERT INTO people VALUES
  (1, 'Ada',  'Paris', 36, 9.5,  '2024-01-02', '${LONG}', x'00010203', 1),
  (2, 'Bo',   'Oslo',  NULL, 7.25, '2024-02-03 10:00:00', 'short', NULL, 'two'),
  (3, 'Cy',   'Paris', 51, NULL, '2023-12-31T23:59:59Z', NULL, x'ff', 3.5),
  (4, 'Di',   NULL,    19, 8,    '2024-03-04', 'mid', x'00010203', NULL),
  (5, 'Eve',  'Paris', 36, 6.5,  '2022-06-30', 'mid', x'0a', x'01');
CREATE TABLE big (n INTEGER, grp TEXT, day TEXT);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5000)
INSERT INTO big SELECT n, 'g' || (n % 3), date('2020-01-01', '+' || (n % 365) || ' days') FROM c;
CREATE TABLE many (v INTEGER);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 100)
INSERT INTO many SELECT n % ${MAX_CATEGORIES + 1} FROM c;
CREATE TABLE empty (v TEXT);
`;

let engine: SqljsEngine;
let exec: SqlExecutor;
const stats = (table: string, column: string, rowBudget?: number) => columnStats(exec, { table, column, rowBudget });

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'db', name: 's.sqlite', bytes: await buildDb(SQL) });
  exec = executorFor(engine, 'db');
});
afterAll(() => engine.close('db'));

describe('columnStats', () => {
  it('counts nulls and distinct values, and gives min and max of numbers', async () => {
    expect(await stats('people', 'age')).toMatchObject({
      rowsScanned: 5,
      approximate: false,
      nullCount: 1,
      distinctCount: 3,
      min: 19,
      max: 51,
      storageClasses: { integer: 4, null: 1 },
      samples: [],
      avgLength: null,
      looksLikeDate: false,
    });
    expect(await stats('people', 'score')).toMatchObject({
      nullCount: 1,
      distinctCount: 4,
      min: 6.5,
      max: 9.5,
      storageClasses: { real: 4, null: 1 },
    }); // REAL affinity stores 8 as 8.0
  });

  it('lists categories with counts for a column with few distinct values, most frequent first', async () => {
    const st = await stats('people', 'city');
    expect(st.categories).toEqual([
      { value: 'Paris', count: 3 },
      { value: 'Oslo', count: 1 },
    ]);
    expect(st).toMatchObject({ nullCount: 1, distinctCount: 2 });
    expect(st.samples).toEqual(expect.arrayContaining(['Paris', 'Oslo']));
    expect((await stats('people', 'age')).categories).toEqual([
      { value: 36, count: 2 },
      { value: 19, count: 1 },
      { value: 51, count: 1 },
    ]);
  });

  it('gives no categories for a column whose values are all different, or that has too many', async () => {
    expect((await stats('people', 'name')).categories).toBeNull();
    expect((await stats('people', 'id')).categories).toBeNull();
    const many = await stats('many', 'v');
    expect(many.distinctCount).toBe(MAX_CATEGORIES + 1);
    expect(many.categories).toBeNull();
  });

  it('gives text samples and average length', async () => {
    const st = await stats('people', 'name');
    expect(st.samples).toHaveLength(5);
    expect(st.samples).toEqual(expect.arrayContaining(['Ada', 'Eve']));
    expect(st.avgLength).toBe(2.4);
    expect(st).toMatchObject({ min: 'Ada', max: 'Eve', storageClasses: { text: 5 } });
  });

  it('recognises ISO dates, with and without times', async () => {
    const st = await stats('people', 'joined');
    expect(st).toMatchObject({ looksLikeDate: true, min: '2022-06-30', max: '2024-03-04' });
    expect((await stats('people', 'name')).looksLikeDate).toBe(false);
  });

  it('cuts long text in min, max, samples and categories', async () => {
    const st = await stats('people', 'bio');
    expect(st.max).toBe('x'.repeat(120));
    expect(st.samples.length).toBeGreaterThan(0);
    expect(st.samples.every((s) => typeof s === 'string' && s.length <= 120)).toBe(true);
    expect(st.avgLength).toBe(127.8); // (500 + 5 + 3 + 3) / 4, to one decimal
  });

  it('handles blob columns: samples and min/max as bytes, categories for repeats', async () => {
    const st = await stats('people', 'photo');
    expect(st).toMatchObject({ nullCount: 1, distinctCount: 3, storageClasses: { blob: 4, null: 1 }, avgLength: null });
    expect(st.min).toEqual(new Uint8Array([0, 1, 2, 3]));
    expect(st.max).toEqual(new Uint8Array([255]));
    expect(st.samples.length).toBeGreaterThan(0);
    expect(st.samples.every((s) => s instanceof Uint8Array)).toBe(true);
    expect(st.categories?.[0]).toEqual({ value: new Uint8Array([0, 1, 2, 3]), count: 2 });
  });

  it('reports mixed storage classes', async () => {
    expect((await stats('people', 'mixed')).storageClasses).toEqual({ integer: 1, text: 1, real: 1, blob: 1, null: 1 });
  });

  it('is approximate over the first rows only when the table exceeds the row budget', async () => {
    const st = await stats('big', 'n', 1000);
    expect(st).toMatchObject({ approximate: true, rowsScanned: 1000, distinctCount: 1000, nullCount: 0 });
    expect(st.max).toBeLessThanOrEqual(1000);
    const full = await stats('big', 'n');
    expect(full).toMatchObject({ approximate: false, rowsScanned: 5000, distinctCount: 5000, min: 1, max: 5000 });
    const grp = await stats('big', 'grp', 1000);
    expect(grp.categories?.reduce((a, c) => a + c.count, 0)).toBe(1000);
    expect((await stats('big', 'day', 1000)).looksLikeDate).toBe(true);
  });

  it('uses a row count given by the caller instead of counting', async () => {
    const st = await columnStats(exec, { table: 'big', column: 'n', rowCount: 5000, rowBudget: 4999 });
    expect(st).toMatchObject({ approximate: true, rowsScanned: 4999 });
  });

  it('copes with an empty table', async () => {
    expect(await stats('empty', 'v')).toMatchObject({
      rowsScanned: 0,
      nullCount: 0,
      distinctCount: 0,
      min: null,
      max: null,
      categories: null,
      samples: [],
      looksLikeDate: false,
    });
  });

  it('stops with cancelled when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(columnStats(exec, { table: 'big', column: 'n', signal: ac.signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
  });

  it('is reachable through the engine with a row budget', async () => {
    await engine.introspect('db');
    expect(await engine.columnStats('db', 'big', 'grp', { rowBudget: 10 })).toMatchObject({
      approximate: true,
      rowsScanned: 10,
    });
  });
});

describe('statistics of a rowid alias', () => {
  const ALIAS_SQL = `
    CREATE TABLE a (id INTEGER PRIMARY KEY, x TEXT);
    INSERT INTO a(id, x) VALUES (3, 'p'), (10, 'q'), (-4, 'r'), (11, 's');
    CREATE TABLE d (id INTEGER PRIMARY KEY DESC, x TEXT);
    CREATE TABLE i (id INT PRIMARY KEY, x TEXT);
    CREATE TABLE c (id INTEGER, k INTEGER, PRIMARY KEY (id, k));
    CREATE TABLE w (id INTEGER PRIMARY KEY, x TEXT) WITHOUT ROWID;
    CREATE TABLE e (id INTEGER PRIMARY KEY);
  `;
  let aliasEngine: SqljsEngine;
  let aliasExec: SqlExecutor;
  beforeAll(async () => {
    aliasEngine = await createNodeEngine();
    await aliasEngine.open({ id: 'a', name: 'a.sqlite', bytes: await buildDb(ALIAS_SQL) });
    aliasExec = executorFor(aliasEngine, 'a');
  });
  afterAll(() => aliasEngine.close('a'));

  const alias = async (table: string) => {
    const schema = await aliasEngine.introspect('a');
    const t = schema.tables.find((x) => x.name === table)!;
    return isRowidAlias(aliasExec, t, t.columns[0]);
  };

  it('knows INTEGER PRIMARY KEY from its look-alikes', async () => {
    expect(await alias('a')).toBe(true);
    expect(await alias('e')).toBe(true);
    for (const t of ['d', 'i', 'c', 'w']) expect(await alias(t), t).toBe(false);
  });

  it('gives what the scan would, over every row, without one', async () => {
    const fast = await rowidAliasStats(aliasExec, 'a', 'id');
    const scanned = await columnStats(aliasExec, { table: 'a', column: 'id' });
    expect(fast).toEqual(scanned);
    expect(fast).toMatchObject({ min: -4, max: 11, distinctCount: 4, nullCount: 0, rowsScanned: 4 });
    expect(await rowidAliasStats(aliasExec, 'e', 'id')).toEqual(
      await columnStats(aliasExec, { table: 'e', column: 'id' }),
    );
  });
});
