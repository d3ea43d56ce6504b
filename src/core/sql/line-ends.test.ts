import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { buildDb } from '../../test-support/build-db';
import { sqlFileText } from '../export/sql-file';
import { normalizeLineEnds } from './line-ends';
import { assertSingleReadStatement, splitStatements } from './statements';

const HIDDEN_WRITES = [
  'SELECT 1 --\r; DROP TABLE t',
  'SELECT 1 --\r\r; DROP TABLE t',
  'SELECT 1 -- note\u2028; DELETE FROM t',
  'SELECT 1 -- note\u2029; DELETE FROM t',
  'SELECT 1 -- note\u0085; UPDATE t SET a = 2',
  "SELECT 1 --\r'x'; DROP TABLE t",
];

/** What a CR→LF (or "unusual line terminators") conversion of a saved file leaves. */
const convertedByEditor = (text: string) => text.replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n');

describe('line ends before the read-only gate (issue 11, item 11)', () => {
  it('turns every line end outside literals into LF and keeps literals byte for byte', () => {
    expect(normalizeLineEnds('SELECT 1\r\nFROM t\rWHERE a = 1 -- c\u2028')).toBe(
      'SELECT 1\nFROM t\nWHERE a = 1 -- c\n',
    );
    expect(normalizeLineEnds('SELECT \'a\rb\', "c\r\nd" FROM t')).toBe('SELECT \'a\rb\', "c\r\nd" FROM t');
    expect(normalizeLineEnds('SELECT 1')).toBe('SELECT 1');
  });

  it('refuses a write hidden behind a bare CR in a comment, as a second statement', () => {
    for (const sql of HIDDEN_WRITES) {
      // Without normalising, the lexer (like SQLite) sees one read: the gate would have passed it.
      expect(splitStatements(sql)).toHaveLength(1);
      // After a conversion the file holds a write: that is why the gate must refuse it now.
      expect(splitStatements(convertedByEditor(sql)).length).toBeGreaterThan(1);
      expect(() => assertSingleReadStatement(sql)).toThrow(/Only one statement runs at a time/);
    }
  });

  it('an exported .sql file holds no bare CR outside literals, so a conversion cannot split it', () => {
    for (const sql of ["SELECT a\r\nFROM t -- the table\r\nWHERE b = 'x\ry'", 'SELECT 1 --\r; DROP TABLE t']) {
      const text = sqlFileText(sql, { database: 'd', exportedAt: '2025-01-01T00:00:00Z' });
      expect(text.replace(/'x\ry'/, '')).not.toMatch(/[\r\u0085\u2028\u2029]/);
      expect(splitStatements(convertedByEditor(text))).toHaveLength(splitStatements(text).length);
    }
    expect(sqlFileText("SELECT 'x\ry'", { database: 'd', exportedAt: 'now' })).toContain("'x\ry'");
  });
});

describe('the engine with CR comments', () => {
  let engine: SqljsEngine;
  beforeAll(async () => {
    engine = await createNodeEngine();
    await engine.open({
      id: 'd',
      name: 'd.sqlite',
      bytes: await buildDb('CREATE TABLE t(a); INSERT INTO t VALUES (1);'),
    });
  });
  afterAll(() => engine.close('d'));

  it('never runs the hidden statement, and reads still work with CRLF', async () => {
    for (const sql of HIDDEN_WRITES)
      await expect(engine.query('d', sql)).rejects.toMatchObject({ code: 'multiple_statements' });
    const r = await engine.query('d', 'SELECT a\r\nFROM t -- all\r\n');
    expect(r.rows).toEqual([[1]]);
    expect((await engine.query('d', 'SELECT count(*) FROM t')).rows).toEqual([[1]]);
  });
});
