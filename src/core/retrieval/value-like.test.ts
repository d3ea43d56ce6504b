import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import { extractDistinctValues } from './distinct-values';
import type { DistinctColumnValues } from './types';
import { escapeLike, likeFallbackSearch, likePattern, likeTargets } from './value-like';

const SQL = `
CREATE TABLE users (id INTEGER PRIMARY KEY, email, plan TEXT); -- no declared type: 12345 stays an integer
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 12000)
INSERT INTO users SELECT n, 'user' || n || '@example.com', CASE n % 2 WHEN 0 THEN 'free' ELSE 'pro' END FROM c;
UPDATE users SET email = 'Ada.Lovelace@Analytical.org' WHERE id = 5000;
UPDATE users SET email = 12345 WHERE id = 6000;
CREATE TABLE posts (body TEXT);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 30)
INSERT INTO posts SELECT 'post ' || n || ' about ' || CASE WHEN n = 7 THEN 'the Blue Whale' ELSE 'nothing' END || printf('%.250c', '.') FROM c;
`;

let engine: SqljsEngine;
let exec: SqlExecutor;
let columns: DistinctColumnValues[];

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'db', name: 'l.sqlite', bytes: await buildDb(SQL) });
  exec = executorFor(engine, 'db');
  columns = await extractDistinctValues(exec, await engine.introspect('db'));
});
afterAll(() => engine.close('db'));

describe('likeFallbackSearch', () => {
  it('covers the columns that are not fully indexed, in scope', () => {
    expect(likeTargets(columns)).toEqual(
      [
        { table: 'users', column: 'email' },
        { table: 'posts', column: 'body' },
      ].sort((a, b) => (a.table < b.table ? -1 : 1)),
    );
    expect(likeTargets(columns, { table: 'USERS' })).toEqual([{ table: 'users', column: 'email' }]);
    expect(likeTargets(columns, { column: 'plan' })).toEqual([]);
  });

  it('finds a substring in a unique-looking column, with its row count', async () => {
    const hits = await likeFallbackSearch(exec, columns, 'lovelace');
    expect(hits[0]).toMatchObject({
      table: 'users',
      column: 'email',
      value: 'Ada.Lovelace@Analytical.org',
      rows: 1,
      match: 'like',
    });
    const user77 = await likeFallbackSearch(exec, columns, 'user77@', { k: 3 });
    expect(user77).toHaveLength(3);
    expect(user77.every((h) => h.value.startsWith('user77'))).toBe(true);
  });

  it('finds words inside long text', async () => {
    const hits = await likeFallbackSearch(exec, columns, 'blue whale', { table: 'posts' });
    expect(hits).toHaveLength(1);
    expect(hits[0].value).toMatch(/^post 7 about the Blue Whale/);
  });

  it('stays bounded when most rows match, skips numbers and compares short queries for equality', async () => {
    expect(await likeFallbackSearch(exec, columns, 'example', { k: 4 })).toHaveLength(4);
    expect(await likeFallbackSearch(exec, columns, '12345')).toEqual([]);
    expect(await likeFallbackSearch(exec, columns, 'er')).toEqual([]);
  });

  it('escapes LIKE wildcards and joins words with anything between them', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
    expect(likePattern('John  Q. Smith')).toBe('%John%Q%Smith%');
  });
});
