// The engine's own gates with the keyword gate switched off (as if its lexer had a gap): the
// compiled program and SQLite's own statement boundaries must still stop every write.

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildDb } from '../../test-support/build-db';
import type { SqljsEngine } from './engine';
import { createNodeEngine } from './node';

vi.mock('../../core/sql/statements', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../core/sql/statements')>()),
  assertSingleReadStatement: (sql: string) => sql.trim(),
}));

describe('engine gates behind a keyword gate that lets everything through', () => {
  let engine: SqljsEngine;
  const count = async () => (await engine.query('db', 'SELECT count(*) FROM t')).rows[0][0];

  beforeAll(async () => {
    engine = await createNodeEngine();
    await engine.open({
      id: 'db',
      name: 'b.sqlite',
      bytes: await buildDb('CREATE TABLE t (a); INSERT INTO t VALUES (1), (2);'),
    });
  });

  it.each([
    'DELETE FROM t',
    'INSERT INTO t VALUES (3)',
    'UPDATE t SET a = 0',
    'CREATE TABLE u (x)',
    'DROP TABLE t',
    "ATTACH ':memory:' AS m",
    'VACUUM',
    'PRAGMA journal_mode = MEMORY',
  ])('the bytecode gate refuses %s', async (sql) => {
    await expect(engine.query('db', sql)).rejects.toMatchObject({ code: 'read_only' });
    expect(await count()).toBe(2);
  });

  it.each(['SELECT 1; DELETE FROM t', "SELECT $a(');DELETE FROM t;--')", 'EXPLAIN SELECT 1; DELETE FROM t'])(
    'SQLite reading a second statement in %s refuses it before anything runs',
    async (sql) => {
      await expect(engine.query('db', sql)).rejects.toMatchObject({ code: 'multiple_statements' });
      expect(await count()).toBe(2);
    },
  );

  it('still runs reads, with trailing semicolons and comments', async () => {
    expect((await engine.query('db', 'SELECT a FROM t ORDER BY a; -- done')).rows).toEqual([[1], [2]]);
    expect((await engine.query('db', 'PRAGMA query_only')).rows).toEqual([[1]]);
  });
});
