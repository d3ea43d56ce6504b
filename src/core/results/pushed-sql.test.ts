// The SQL a capped result's view becomes gives, on the whole table, the rows the grid's view gives
// when the grid holds every row.
import initSqlJs, { type Database } from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlValue } from '../types';
import { sqlWithView } from './pushed-sql';
import { rowView, type RowViewOptions } from './row-view';

let db: Database;
beforeAll(async () => {
  const SQL = await initSqlJs();
  db = new SQL.Database();
  db.run(`CREATE TABLE t (name TEXT, n, born TEXT);
    INSERT INTO t VALUES ('Ann', 3, '2001-02-03'), ('bob', NULL, '1999-12-31'), ('Cy_100%', 12, NULL),
      ('dee', '7', '2010-05-05'), (NULL, 1.5, '2001-02-03'), ('Eve''s', 3, '1980-01-01'), ('x', 'n/a', NULL);`);
});
afterAll(() => db.close());

const all = (sql: string): SqlValue[][] => (db.exec(sql)[0]?.values ?? []) as SqlValue[][];
const statement = 'SELECT name, n, born FROM t -- the people;\n;';
const columns = ['name', 'n', 'born'];

describe('sqlWithView', () => {
  const views: Array<[string, RowViewOptions]> = [
    ['sort by a number, descending', { sort: { column: 1, direction: 'desc' } }],
    ['sort by a date', { sort: { column: 2, direction: 'asc' } }],
    [
      'text contains, with LIKE wildcards taken literally',
      { filters: new Map([[0, { kind: 'text', contains: '_100%' }]]) },
    ],
    ['text contains a quote', { filters: new Map([[0, { kind: 'text', contains: "e's" }]]) }],
    [
      'a number range over numbers and numbers stored as text',
      { filters: new Map([[1, { kind: 'range', min: 3, max: 10 }]]) },
    ],
    ['a strict bound', { filters: new Map([[1, { kind: 'range', min: 3, exclusive: true }]]) }],
    ['a quick filter over every column, sorted', { quick: '2001', sort: { column: 1, direction: 'asc' } }],
  ];
  it.each(views)('%s: the same rows as the grid', (_name, view) => {
    const rows = all('SELECT name, n, born FROM t');
    const expected = rowView(rows, view).map((i) => rows[i]);
    const sql = sqlWithView(statement, columns, view)!;
    expect(all(sql)).toEqual(expected);
  });

  it('keeps a trailing comment from swallowing the parenthesis and drops trailing semicolons', () => {
    const sql = sqlWithView(statement, columns, { sort: { column: 0, direction: 'asc' } })!;
    expect(sql).toBe(`SELECT * FROM (\nSELECT name, n, born FROM t -- the people\n) ORDER BY 1 ASC NULLS LAST`);
  });

  it('gives up where a filter names a column the result holds twice', () => {
    const twice = ['id', 'id'];
    expect(sqlWithView('SELECT a.id, b.id FROM a, b', twice, { quick: 'x' })).toBeNull();
    expect(
      sqlWithView('SELECT a.id, b.id FROM a, b', twice, { filters: new Map([[1, { kind: 'text', contains: 'x' }]]) }),
    ).toBeNull();
    // Sorting goes by position, so it still works.
    expect(sqlWithView('SELECT a.id, b.id FROM a, b', twice, { sort: { column: 1, direction: 'desc' } })).toContain(
      'ORDER BY 2 DESC',
    );
  });
});
