// The bytecode gate on programs compiled by the real SQLite (plain sql.js, no engine), so a
// change in SQLite's code generation that the gate misreads shows up here.

import initSqlJs, { type Database } from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWrite, type BytecodeRow } from './bytecode-guard';

let db: Database;

beforeAll(async () => {
  const SQL = await initSqlJs();
  db = new SQL.Database();
  db.run(`CREATE TABLE t (id INTEGER PRIMARY KEY, cat TEXT, v REAL);
          CREATE TABLE u (id INTEGER PRIMARY KEY, t_id INTEGER REFERENCES t(id));
          INSERT INTO t (cat, v) VALUES ('a', 1), ('b', 2), ('a', 3);`);
});
afterAll(() => db.close());

function program(sql: string): BytecodeRow[] {
  const [r] = db.exec(`EXPLAIN ${sql}`);
  const at = (name: string) => r.columns.indexOf(name);
  return r.values.map((v) => ({
    opcode: String(v[at('opcode')]),
    p1: Number(v[at('p1')]),
    p2: Number(v[at('p2')]),
    p3: Number(v[at('p3')]),
    p4: v[at('p4')] == null ? null : String(v[at('p4')]),
  }));
}

const WRITES: Array<[string, RegExp]> = [
  ["INSERT INTO t (cat, v) VALUES ('c', 4)", /write transaction|for writing/],
  ['DELETE FROM t WHERE id = 1', /write transaction|for writing/],
  ["UPDATE t SET cat = 'z'", /write transaction|for writing/],
  ['CREATE TABLE n (x)', /write transaction|for writing|SetCookie|CreateBtree/],
  ['CREATE INDEX ix ON t (cat)', /write transaction|for writing|SetCookie|CreateBtree/],
  ['DROP TABLE u', /write transaction|for writing|Destroy|DropTable/],
  ["ATTACH ':memory:' AS other", /attaches or detaches/],
  ['DETACH other', /attaches or detaches/],
  ['VACUUM', /Vacuum/],
  ["VACUUM INTO '/tmp/never-written.db'", /Vacuum/],
  ['PRAGMA journal_mode = WAL', /JournalMode/],
];

const READS = [
  'SELECT * FROM t',
  'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 100) SELECT sum(n) FROM c',
  'SELECT * FROM t ORDER BY v DESC, cat',
  'SELECT cat, count(*), avg(v) FROM t GROUP BY cat ORDER BY 2 DESC',
  'SELECT DISTINCT cat FROM t',
  'SELECT id, row_number() OVER (PARTITION BY cat ORDER BY v), sum(v) OVER (ORDER BY id ROWS 1 PRECEDING) FROM t',
  'SELECT * FROM t WHERE id IN (SELECT t_id FROM u) UNION SELECT * FROM t WHERE v > 1',
  'SELECT * FROM t, u WHERE u.t_id = t.id',
  'PRAGMA journal_mode',
  "PRAGMA table_info('t')",
  'PRAGMA quick_check',
];

describe('findWrite on programs compiled by SQLite', () => {
  it.each(WRITES)('flags %s', (sql, why) => {
    expect(findWrite(program(sql))).toMatch(why);
  });

  it.each(READS)('lets %s through', (sql) => {
    expect(findWrite(program(sql))).toBeNull();
  });

  it('recognises the temp b-trees of sorting and recursion as such (they are why Insert is allowed)', () => {
    expect(program(READS[1]).map((r) => r.opcode)).toContain('OpenEphemeral');
    expect(program(READS[2]).map((r) => r.opcode)).toContain('SorterOpen');
  });
});

describe('what the bytecode cannot show', () => {
  it('a PRAGMA setting takes effect while compiling, so only the keyword gate can stop it', () => {
    db.exec('PRAGMA query_only = 1');
    expect(findWrite(program('PRAGMA query_only = 0'))).toBeNull(); // compiling EXPLAIN applied it
    expect(db.exec('PRAGMA query_only')[0].values[0][0]).toBe(0);
  });
});

describe('findWrite on hand-made programs', () => {
  const row = (opcode: string, p: Partial<BytecodeRow> = {}): BytecodeRow => ({ opcode, p1: 0, p2: 0, p4: null, ...p });

  it('reads a Transaction by its write flag', () => {
    expect(findWrite([row('Transaction', { p2: 0 })])).toBeNull();
    expect(findWrite([row('Transaction', { p2: 1 })])).toMatch(/write transaction/);
    expect(findWrite([row('Transaction', { p2: 2 })])).toMatch(/write transaction/);
  });

  it('treats JournalMode as a write unless its P3 says "query"', () => {
    expect(findWrite([row('JournalMode', { p3: -1 })])).toBeNull();
    expect(findWrite([row('JournalMode', { p3: 5 })])).toMatch(/JournalMode/);
    expect(findWrite([row('JournalMode')])).toMatch(/JournalMode/);
  });

  it('flags attach and detach calls by function name', () => {
    expect(findWrite([row('Function', { p4: 'sqlite_attach(3)' })])).toMatch(/attaches/);
    expect(findWrite([row('PureFunc', { p4: 'SQLITE_DETACH(1)' })])).toMatch(/attaches/);
    expect(findWrite([row('Function', { p4: 'upper(1)' })])).toBeNull();
  });
});
