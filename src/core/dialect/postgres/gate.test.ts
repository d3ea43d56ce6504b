import { describe, expect, it } from 'vitest';
import { DowserError } from '../../errors';
import { POSTGRES_ATTACKS } from './attacks';
import { assertPostgresRead } from './gate';

function refusal(sql: string): DowserError {
  try {
    assertPostgresRead(sql);
  } catch (e) {
    if (e instanceof DowserError) return e;
    throw e;
  }
  throw new Error(`not refused: ${sql}`);
}

describe('the PostgreSQL read-only gate', () => {
  it('refuses every statement of the adversarial corpus with a readable message', () => {
    expect(POSTGRES_ATTACKS.length).toBeGreaterThanOrEqual(60);
    for (const sql of POSTGRES_ATTACKS) {
      const e = refusal(sql);
      expect(['read_only', 'multiple_statements', 'sql_error'], sql).toContain(e.code);
      expect(e.message.length, sql).toBeGreaterThan(20);
    }
  });

  it.each([
    'SELECT 1',
    'select count(*) from t',
    'SELECT name, lower(name) FROM t WHERE id IN (1, 2) ORDER BY 1 LIMIT 5',
    'WITH c(a) AS (SELECT id FROM t), d AS MATERIALIZED (SELECT 1) SELECT * FROM c, d',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
    'SELECT x.a FROM t AS x(a, b)',
    'SELECT y.a FROM t y(a)',
    'SELECT CAST(id AS varchar(10)), EXTRACT(YEAR FROM now()), SUBSTRING(name FROM 1 FOR 2) FROM t',
    "SELECT date_trunc('month', created)::date, count(*) FILTER (WHERE id > 1) OVER (PARTITION BY id) FROM t",
    'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY id) FROM t',
    'TABLE t',
    '(SELECT 1) UNION (SELECT 2)',
    'VALUES (1, 2), (3, 4)',
    'EXPLAIN SELECT * FROM t',
    'EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM t',
    'SELECT * FROM generate_series(1, 3) AS g(n)',
    "SELECT E'\\'; DELETE FROM t; --'",
    "SELECT 'a;b', $$c;d$$, $tag$ ; DROP TABLE t $tag$",
    'SELECT pg_catalog.lower(name) FROM t;',
    'SELECT "into" FROM t',
    'SELECT similarity(name, $1) FROM t',
  ])('lets a read through: %s', (sql) => {
    expect(() => assertPostgresRead(sql)).not.toThrow();
  });

  it('returns the statement without its trailing semicolon and comments', () => {
    expect(assertPostgresRead('  SELECT 1 ; -- done\n')).toBe('SELECT 1');
  });

  it('names the function it refuses, and the multiple statements', () => {
    expect(refusal("SELECT pg_read_file('/etc/passwd')").message).toContain('pg_read_file(…)');
    expect(refusal('SELECT 1; SELECT 2').code).toBe('multiple_statements');
    expect(refusal('  -- nothing\n').code).toBe('empty_statement');
    expect(refusal("SELECT 'open").message).toContain('unterminated string');
  });
});
