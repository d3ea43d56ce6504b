import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { buildDb } from '../../test-support/build-db';
import { assertSingleReadStatement, splitStatements, statementAt, UnknownStatementError } from './statements';
import { tokenize } from './tokens';

const texts = (sql: string) => splitStatements(sql).map((s) => s.text);

/** The error code assertSingleReadStatement throws, or 'ok'. */
function gate(sql: string): string {
  try {
    assertSingleReadStatement(sql);
    return 'ok';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

const READS = [
  'SELECT * FROM t',
  'select a from t where b = 1',
  'WITH x AS (SELECT 1) SELECT * FROM x',
  'WITH a AS (SELECT 1), b(y) AS MATERIALIZED (SELECT 2) SELECT * FROM a, b',
  'WITH x AS NOT MATERIALIZED (SELECT 1) SELECT * FROM x',
  'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5) SELECT n FROM c',
  'WITH x AS (SELECT 1) VALUES (1)',
  'VALUES (1, 2), (3, 4)',
  'EXPLAIN SELECT * FROM t',
  'EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = 1',
  "PRAGMA table_info('t')",
  'PRAGMA main.table_info(t)',
  'PRAGMA quick_check',
  'PRAGMA quick_check(5)',
  'PRAGMA integrity_check',
  'PRAGMA index_list(t)',
  'PRAGMA foreign_key_list("t")',
  'PRAGMA user_version',
  'PRAGMA query_only',
  'PRAGMA journal_mode',
  "SELECT name FROM pragma_table_info('t')",
  'SELECT * FROM "PRAGMA_INDEX_LIST"(\'t\')',
  'SELECT (SELECT user_version FROM main.pragma_user_version) AS v',
  "WITH c AS (SELECT name FROM pragma_table_xinfo('t')) SELECT * FROM c",
  "SELECT replace(a, 'x', 'y') FROM t",
  "SELECT 'DELETE FROM t; DROP TABLE t' AS s",
  'SELECT "insert" FROM t',
  '  -- leading comment\nSELECT 1 /* trailing */ ;  ',
];

const WRITES = [
  'INSERT INTO t VALUES (1, 2)',
  'insert into t(a) select a from t',
  'UPDATE t SET a = 2',
  'DELETE FROM t',
  'REPLACE INTO t VALUES (1, 2)',
  'INSERT OR REPLACE INTO t VALUES (9, 9)',
  'CREATE TABLE u (x)',
  'CREATE INDEX ix ON t(a)',
  'CREATE VIEW v AS SELECT 1',
  'CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END',
  'CREATE TEMP TABLE u (x)',
  'DROP TABLE t',
  'ALTER TABLE t ADD COLUMN c',
  'PRAGMA query_only=0',
  'PRAGMA query_only = OFF',
  'PRAGMA query_only(0)',
  'PRAGMA writable_schema=1',
  'PRAGMA journal_mode=WAL',
  'PRAGMA main.journal_mode = DELETE',
  'PRAGMA user_version=3',
  'PRAGMA foreign_keys = ON',
  'PRAGMA cache_size',
  // The table-valued form of a pragma runs it: the same allow-list (issue: pragma_optimize).
  'SELECT * FROM pragma_optimize(0x10002)',
  'SELECT * FROM pragma_optimize',
  'SELECT * FROM PRAGMA_OPTIMIZE(0x10002)',
  'SELECT * FROM "pragma_optimize"(0x10002)',
  'SELECT * FROM [pragma_optimize]',
  'SELECT * FROM `pragma_optimize`',
  "SELECT * FROM 'pragma_optimize'(0x10002)",
  'SELECT * FROM main.pragma_optimize(0x10002)',
  'SELECT * FROM t WHERE a IN (SELECT 1 FROM pragma_optimize(0x10002))',
  'WITH o AS (SELECT * FROM pragma_optimize(0x10002)) SELECT * FROM o',
  'VALUES ((SELECT count(*) FROM pragma_optimize))',
  'EXPLAIN SELECT * FROM pragma_optimize(0x10002)',
  'SELECT * FROM pragma_cache_size',
  'SELECT * FROM pragma_writable_schema',
  "ATTACH 'other.db' AS o",
  "ATTACH DATABASE ':memory:' AS m",
  'DETACH o',
  'VACUUM',
  "VACUUM INTO 'x.db'",
  'REINDEX',
  'ANALYZE',
  'BEGIN',
  'BEGIN IMMEDIATE',
  'COMMIT',
  'END',
  'ROLLBACK',
  'SAVEPOINT s',
  'RELEASE s',
  'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x',
  'WITH x AS (SELECT 1) UPDATE t SET a = (SELECT * FROM x)',
  'WITH x AS (SELECT 1) DELETE FROM t WHERE a IN x',
  'WITH x AS (SELECT 1) REPLACE INTO t SELECT 1, 2',
  'EXPLAIN PRAGMA query_only = 0',
  'EXPLAIN QUERY PLAN DELETE FROM t',
  'EXPLAIN PRAGMA writable_schema=1',
];

describe('splitStatements', () => {
  it('splits on top-level semicolons and drops empty spans', () => {
    expect(texts('SELECT 1; SELECT 2;;  ;')).toEqual(['SELECT 1', 'SELECT 2']);
  });

  it('ignores semicolons in strings, quoted identifiers, brackets, backticks and comments', () => {
    const sql = `SELECT 'a;b', "c;d", [e;f], \`g;h\` -- x;y
      /* p;q */ FROM t; SELECT 'it''s;'`;
    expect(texts(sql)).toEqual([sql.slice(0, sql.indexOf('FROM t') + 6), "SELECT 'it''s;'"]);
  });

  it('drops trailing comment-only text', () => {
    expect(texts('SELECT 1; -- done\n/* really */')).toEqual(['SELECT 1']);
    expect(texts('-- only a comment')).toEqual([]);
  });

  it('keeps offsets into the original text', () => {
    const sql = 'SELECT 1;\n  SELECT 2';
    const [a, b] = splitStatements(sql);
    expect(sql.slice(a.start, a.end)).toBe('SELECT 1');
    expect(sql.slice(b.start, b.end).trim()).toBe('SELECT 2');
  });

  it('treats an unterminated string as running to the end', () => {
    expect(texts("SELECT 'abc; SELECT 2")).toEqual(["SELECT 'abc; SELECT 2"]);
  });

  it('sees a Tcl-style parameter suffix as SQLite does, so a quote in it hides nothing', () => {
    // To SQLite `$a(');` is one parameter token; the `;` after it ends the statement.
    expect(texts("SELECT $a(');DELETE FROM t;--')")).toEqual(["SELECT $a(')", 'DELETE FROM t']);
    expect(
      tokenize('SELECT :x::y(z) , @p, #1, ?12')
        .filter((t) => t.kind === 'param')
        .map((t) => t.text),
    ).toEqual([':x::y(z)', '@p', '#1', '?12']);
  });
});

describe('statementAt', () => {
  const sql = 'SELECT 1;\nSELECT 2; -- note\n\nSELECT 3';

  it('finds the statement containing the cursor', () => {
    expect(statementAt(sql, 3)?.text).toBe('SELECT 1');
    expect(statementAt(sql, sql.indexOf('2'))?.text).toBe('SELECT 2');
    expect(statementAt(sql, sql.length)?.text).toBe('SELECT 3');
  });

  it('takes the statement before when the cursor is after its semicolon on blank or comment text', () => {
    expect(statementAt(sql, sql.indexOf('-- note') + 3)?.text).toBe('SELECT 2');
    expect(statementAt('SELECT 1;   ', 11)?.text).toBe('SELECT 1');
  });

  it('returns the first statement for a cursor before it, and null without statements', () => {
    expect(statementAt('  SELECT 1', 0)?.text).toBe('SELECT 1');
    expect(statementAt('-- nothing', 3)).toBeNull();
  });
});

describe('assertSingleReadStatement', () => {
  it.each(READS)('accepts %s', (sql) => {
    expect(gate(sql)).toBe('ok');
  });

  it('returns the statement without its semicolon and surrounding blanks', () => {
    expect(assertSingleReadStatement('  SELECT 1 ;  ')).toBe('SELECT 1');
  });

  it.each(WRITES)('refuses %s as read_only', (sql) => {
    expect(gate(sql)).toBe('read_only');
  });

  it('explains why, in words', () => {
    expect(() => assertSingleReadStatement('DELETE FROM t')).toThrow(/Only reading is allowed: DELETE changes data/);
    expect(() => assertSingleReadStatement('WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x')).toThrow(
      /WITH … INSERT/,
    );
  });

  it.each(['SELECT 1; DELETE FROM t', 'SELECT 1; SELECT 2', "SELECT $a(');DELETE FROM t;--')"])(
    'refuses %s as multiple_statements',
    (sql) => {
      expect(gate(sql)).toBe('multiple_statements');
    },
  );

  it.each(['SELEC * FROM t', 'EXPLAIN SELEC 1', '(SELECT 1)'])(
    'does not call %s a write: it is no statement',
    (sql) => {
      expect(() => assertSingleReadStatement(sql)).toThrow(UnknownStatementError);
    },
  );

  it.each(['', '   ', ';', '-- only a comment', '/* c */ ; -- d'])('refuses %j as empty_statement', (sql) => {
    expect(gate(sql)).toBe('empty_statement');
  });
});

describe('the read-only gates end to end (engine)', () => {
  const SCHEMA = `CREATE TABLE t (a INTEGER, b INTEGER); INSERT INTO t VALUES (1, 2), (3, 4); PRAGMA user_version = 7;`;
  let engine: SqljsEngine;

  const one = async (sql: string) => (await engine.query('db', sql)).rows[0]?.[0];
  const state = async () => ({
    rows: await one('SELECT count(*) FROM t'),
    sum: await one('SELECT sum(a) + sum(b) FROM t'),
    objects: await one('SELECT count(*) FROM sqlite_schema'),
    userVersion: await one('PRAGMA user_version'),
    queryOnly: await one('PRAGMA query_only'),
    databases: (await engine.query('db', 'PRAGMA database_list')).rows.length,
  });

  beforeAll(async () => {
    engine = await createNodeEngine();
    await engine.open({ id: 'db', name: 'gate.sqlite', bytes: await buildDb(SCHEMA) });
  });
  afterAll(() => engine.close('db'));

  it('starts from a known state', async () => {
    expect(await state()).toEqual({ rows: 2, sum: 10, objects: 1, userVersion: 7, queryOnly: 1, databases: 1 });
  });

  it.each(WRITES)('refuses %s and leaves the database unchanged', async (sql) => {
    await expect(engine.query('db', sql)).rejects.toMatchObject({ code: 'read_only' });
    expect(await state()).toEqual({ rows: 2, sum: 10, objects: 1, userVersion: 7, queryOnly: 1, databases: 1 });
  });

  it.each([
    ['SELEC * FROM t', 'near "SELEC": syntax error (line 1, column 1)'],
    ['SELECT *\nFRM t', 'near "FRM": syntax error (line 2, column 1)'],
    ['SELEC 1; DELETE FROM t', 'near "SELEC": syntax error (line 1, column 1)'],
  ])("reports SQLite's syntax error with its position for %j", async (sql, message) => {
    await expect(engine.query('db', sql)).rejects.toMatchObject({ code: 'sql_error', message });
    expect(await state()).toEqual({ rows: 2, sum: 10, objects: 1, userVersion: 7, queryOnly: 1, databases: 1 });
  });

  it.each(['SELECT 1; DELETE FROM t', "SELECT $a(');PRAGMA query_only=0;--')", "SELECT $a(');DELETE FROM t;--')"])(
    'refuses %s as multiple statements and leaves the database unchanged',
    async (sql) => {
      await expect(engine.query('db', sql)).rejects.toMatchObject({ code: 'multiple_statements' });
      expect(await state()).toEqual({ rows: 2, sum: 10, objects: 1, userVersion: 7, queryOnly: 1, databases: 1 });
    },
  );

  it.each(READS.filter((s) => !/\bFROM x\b|\bWHERE a IN\b/.test(s)))('runs %s', async (sql) => {
    await expect(engine.query('db', sql)).resolves.toHaveProperty('columns');
  });

  it('reads the journal mode without the bytecode gate calling it a write', async () => {
    expect(await one('PRAGMA journal_mode')).toBe('delete');
  });
});
