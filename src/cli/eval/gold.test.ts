import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import type { Gold, GoldFailure } from '../../core/eval/types';
import { executorFor, type SqlExecutor } from '../../core/executor';
import type { Schema } from '../../core/types';
import { buildDb } from '../../test-support/build-db';
import { explainColumns } from './explain-columns';
import { extractGold, isGoldFailure, rewriteForParser } from './gold';

const SCHEMA = `
CREATE TABLE singer (Singer_ID INTEGER PRIMARY KEY, Name TEXT, Country TEXT, Age INTEGER);
CREATE TABLE stadium (Stadium_ID INTEGER PRIMARY KEY, Location TEXT, Name TEXT, Capacity INTEGER);
CREATE TABLE concert (concert_ID INTEGER PRIMARY KEY, concert_Name TEXT, Year TEXT, Stadium_ID INTEGER REFERENCES stadium(Stadium_ID));
CREATE TABLE singer_in_concert (concert_ID INTEGER REFERENCES concert(concert_ID), Singer_ID INTEGER REFERENCES singer(Singer_ID));
CREATE TABLE "show" (Show_ID INTEGER PRIMARY KEY, Attendance REAL);
CREATE TABLE pair (a TEXT, b TEXT, c INTEGER, PRIMARY KEY (b, a)) WITHOUT ROWID;
CREATE INDEX concert_year ON concert (Year);
INSERT INTO singer VALUES (1, 'Ada', 'France', 30), (2, 'Bo', 'Norway', 45);
INSERT INTO stadium VALUES (1, 'Paris', 'Stade', 80000);
INSERT INTO concert VALUES (1, 'Spring', '2014', 1);
INSERT INTO singer_in_concert VALUES (1, 1);
`;

let engine: SqljsEngine;
let exec: SqlExecutor;
let schema: Schema;

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'db', name: 'concerts.sqlite', bytes: await buildDb(SCHEMA) });
  exec = executorFor(engine, 'db');
  schema = await engine.introspect('db');
});
afterAll(() => engine.close('db'));

async function gold(sql: string): Promise<Gold> {
  const g = await extractGold(sql, schema, exec);
  if (isGoldFailure(g)) throw new Error(`no gold for ${sql}: ${g.failure}`);
  return g;
}

const cols = (g: Gold | GoldFailure) => (isGoldFailure(g) ? [] : g.columns.map((c) => `${c.table}.${c.column}`).sort());
const joins = (g: Gold) =>
  g.joins.map((j) => [`${j.a.table}.${j.a.column}`, `${j.b.table}.${j.b.column}`].sort().join(' = ')).sort();

describe('extractGold (parser)', () => {
  it('resolves aliases and maps names to the schema spelling; ON equality is a join', async () => {
    const g = await gold(
      'select t1.NAME from SINGER as t1 join singer_in_concert as t2 on t1.singer_id = t2.singer_id where t2.CONCERT_ID = 3',
    );
    expect(g.source).toBe('parser');
    expect(g.tables).toEqual(['singer', 'singer_in_concert']);
    expect(cols(g)).toEqual([
      'singer.Name',
      'singer.Singer_ID',
      'singer_in_concert.Singer_ID',
      'singer_in_concert.concert_ID',
    ]);
    expect(joins(g)).toEqual(['singer.Singer_ID = singer_in_concert.Singer_ID']);
    expect(g.literals).toEqual([]);
    expect(g.unresolved).toEqual([]);
  });

  it('reads subqueries, and a correlated WHERE equality across scopes is a join', async () => {
    const g = await gold('SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)');
    expect(g.tables).toEqual(['stadium', 'concert']);
    expect(cols(g)).toEqual(['concert.Stadium_ID', 'stadium.Name', 'stadium.Stadium_ID']);
    expect(g.joins).toEqual([]);

    const c = await gold(
      'SELECT name FROM singer AS s WHERE EXISTS (SELECT 1 FROM singer_in_concert AS sc WHERE sc.singer_id = s.singer_id)',
    );
    expect(cols(c)).toEqual(['singer.Name', 'singer.Singer_ID', 'singer_in_concert.Singer_ID']);
    expect(joins(c)).toEqual(['singer.Singer_ID = singer_in_concert.Singer_ID']);
  });

  it('joins written in WHERE count, self-comparisons within a table do not', async () => {
    const g = await gold(
      'SELECT T1.Name FROM singer T1, singer_in_concert T2, concert T3 WHERE T1.Singer_ID = T2.Singer_ID AND T3.concert_ID = T2.concert_ID AND T1.Age = T1.Singer_ID',
    );
    expect(joins(g)).toEqual([
      'concert.concert_ID = singer_in_concert.concert_ID',
      'singer.Singer_ID = singer_in_concert.Singer_ID',
    ]);
    expect(g.tables).toEqual(['singer', 'singer_in_concert', 'concert']);
  });

  it('follows UNION branches and rewrites INTERSECT / EXCEPT for the parser', async () => {
    const u = await gold('SELECT country FROM singer WHERE age > 40 UNION SELECT location FROM stadium');
    expect(u.source).toBe('parser');
    expect(cols(u)).toEqual(['singer.Age', 'singer.Country', 'stadium.Location']);
    const i = await gold(
      "SELECT country FROM singer WHERE age > 40 INTERSECT SELECT country FROM singer WHERE name = 'Bo' EXCEPT SELECT location FROM stadium",
    );
    expect(i.source).toBe('parser-rewritten');
    expect(cols(i)).toEqual(['singer.Age', 'singer.Country', 'singer.Name', 'stadium.Location']);
    expect(i.literals).toEqual([{ table: 'singer', column: 'Name', value: 'Bo', op: '=' }]);
  });

  it('resolves unqualified columns to the first table in FROM order that has them', async () => {
    const g = await gold('SELECT name, capacity FROM singer JOIN stadium ON singer.singer_id = stadium.stadium_id');
    expect(cols(g)).toEqual(['singer.Name', 'singer.Singer_ID', 'stadium.Capacity', 'stadium.Stadium_ID']);
    const h = await gold('SELECT name FROM stadium JOIN singer ON singer.singer_id = stadium.stadium_id');
    expect(cols(h)).toContain('stadium.Name');
    expect(cols(h)).not.toContain('singer.Name');
  });

  it('takes double-quoted words as columns when one is in scope, else as string literals', async () => {
    const g = await gold('SELECT "Name" FROM singer WHERE country = "France" AND "Age" > 20');
    expect(g.source).toBe('parser');
    expect(cols(g)).toEqual(['singer.Age', 'singer.Country', 'singer.Name']);
    expect(g.literals).toEqual([{ table: 'singer', column: 'Country', value: 'France', op: '=' }]);
  });

  it("extracts = , IN ('a','b') and LIKE '%x%' literals, also with the literal on the left", async () => {
    const g = await gold(
      "SELECT name FROM singer WHERE country IN ('France', 'Norway') AND name LIKE '%d%' AND 'Ada' = name AND age = 30 AND country NOT LIKE 'x%'",
    );
    expect(g.literals).toEqual([
      { table: 'singer', column: 'Country', value: 'France', op: 'IN' },
      { table: 'singer', column: 'Country', value: 'Norway', op: 'IN' },
      { table: 'singer', column: 'Name', value: 'd', op: 'LIKE', pattern: '%d%' },
      { table: 'singer', column: 'Name', value: 'Ada', op: '=' },
    ]);
  });

  it('excludes * and count(*), keeps columns inside other aggregates', async () => {
    const g = await gold('SELECT *, count(*), max(Capacity) FROM stadium GROUP BY Location');
    expect(g.tables).toEqual(['stadium']);
    expect(cols(g)).toEqual(['stadium.Capacity', 'stadium.Location']);
    const s = await gold('SELECT T1.* FROM singer AS T1');
    expect(s.tables).toEqual(['singer']);
    expect(s.columns).toEqual([]);
    expect((await gold('SELECT count(*) FROM singer')).columns).toEqual([]);
  });

  it('maps derived tables, CTEs and USING back to the underlying columns', async () => {
    expect(cols(await gold('SELECT t.n FROM (SELECT name AS n FROM singer) AS t WHERE t.n = "Ada"'))).toEqual([
      'singer.Name',
    ]);
    const w = await gold(
      'WITH x AS (SELECT singer_id FROM singer) SELECT count(*) FROM x JOIN singer_in_concert AS s ON x.singer_id = s.singer_id',
    );
    expect(joins(w)).toEqual(['singer.Singer_ID = singer_in_concert.Singer_ID']);
    const u = await gold('SELECT name FROM singer JOIN singer_in_concert USING (singer_id)');
    expect(joins(u)).toEqual(['singer.Singer_ID = singer_in_concert.Singer_ID']);
  });

  it('sees through * in a derived table and keeps a WITH visible in every UNION branch', async () => {
    const d = await gold("SELECT t.country FROM (SELECT * FROM singer WHERE age > 20) AS t WHERE t.name = 'Ada'");
    expect(cols(d)).toEqual(['singer.Age', 'singer.Country', 'singer.Name']);
    expect(d.literals).toEqual([{ table: 'singer', column: 'Name', value: 'Ada', op: '=' }]);
    expect(d.unresolved).toEqual([]);
    const w = await gold(
      'WITH x AS (SELECT * FROM stadium) SELECT name FROM x WHERE capacity > 10 UNION SELECT location FROM x',
    );
    expect(cols(w)).toEqual(['stadium.Capacity', 'stadium.Location', 'stadium.Name']);
    expect(w.unresolved).toEqual([]);
  });

  it('knows select-list aliases (ORDER BY cnt) without calling them unresolved', async () => {
    const g = await gold('SELECT country, count(*) AS cnt FROM singer GROUP BY country ORDER BY cnt DESC');
    expect(cols(g)).toEqual(['singer.Country']);
    expect(g.unresolved).toEqual([]);
    expect((await gold('SELECT nosuch FROM singer')).unresolved).toEqual(['nosuch']);
  });

  it('gets past what its sqlite grammar lacks: a table named like a keyword, OVER (ORDER BY), sum(DISTINCT)', async () => {
    const s = await gold('SELECT avg(Attendance) FROM SHOW');
    expect(s).toMatchObject({ source: 'parser-rewritten', tables: ['show'] });
    expect(cols(s)).toEqual(['show.Attendance']);
    const w = await gold('SELECT name, RANK() OVER (ORDER BY age DESC) AS r FROM singer');
    expect(cols(w)).toEqual(['singer.Age', 'singer.Name']);
    expect(cols(await gold('SELECT sum(DISTINCT age) FROM singer'))).toEqual(['singer.Age']);
  });

  it('rewriteForParser leaves identifiers, strings and comments alone', () => {
    expect(
      rewriteForParser(
        `SELECT "Name" FROM singer WHERE country = "it's" -- EXCEPT "x"\nINTERSECT SELECT 'except'`,
        schema,
      ),
    ).toBe(`SELECT "Name" FROM singer WHERE country = 'it''s' -- EXCEPT "x"\nUNION SELECT 'except'`);
  });
});

describe('extractGold (EXPLAIN fallback)', () => {
  it('falls back to the bytecode when the parser cannot read the query: tables and columns, no literals or joins', async () => {
    const g = await gold("SELECT name FROM singer WHERE country IS NOT DISTINCT FROM 'France'");
    expect(g.source).toBe('explain');
    expect(g.tables).toEqual(['singer']);
    expect(cols(g)).toEqual(['singer.Country', 'singer.Name']);
    expect(g.literals).toEqual([]);
    expect(g.joins).toEqual([]);
  });

  it('fails only when SQLite cannot compile it either', async () => {
    const g = await extractGold('SELECT nothing FROM nowhere WHERE (', schema, exec);
    expect(isGoldFailure(g) && g.failure).toMatch(/^parser: .*; explain: /);
  });
});

describe('explainColumns', () => {
  it('maps cursors to tables and Column opcodes to names, including rowid lookups (INTEGER PRIMARY KEY)', async () => {
    const e = await explainColumns(
      'SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID',
      exec,
    );
    expect(e.tables.sort()).toEqual(['singer', 'singer_in_concert']);
    expect(e.columns.map((c) => `${c.table}.${c.column}`).sort()).toEqual([
      'singer.Name',
      'singer.Singer_ID',
      'singer_in_concert.Singer_ID',
    ]);
  });

  it('maps index seeks to the index columns', async () => {
    const e = await explainColumns("SELECT concert_Name FROM concert WHERE Year = '2014'", exec);
    expect(e.columns.map((c) => `${c.table}.${c.column}`).sort()).toEqual(['concert.Year', 'concert.concert_Name']);
  });

  it('reads WITHOUT ROWID tables in primary-key order', async () => {
    const e = await explainColumns("SELECT c FROM pair WHERE a = 'x'", exec);
    expect(e.columns.map((c) => c.column).sort()).toEqual(['a', 'c']);
  });

  it('cannot tell * from naming every column (why the parser comes first)', async () => {
    const e = await explainColumns('SELECT * FROM stadium', exec);
    expect(e.columns.map((c) => c.column).sort()).toEqual(['Capacity', 'Location', 'Name', 'Stadium_ID']);
  });
});
