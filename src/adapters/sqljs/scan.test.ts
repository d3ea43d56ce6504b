// Rows visited in place (scan.ts) hold what `query` returns for the same statement.
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from './node';
import { buildDb } from '../../test-support/build-db';
import { CELL_NULL, CELL_TEXT, type ScanRow } from '../../core/executor';

const SQL = `
CREATE TABLE t (a TEXT, b);
INSERT INTO t(rowid, a, b) VALUES
  (1, 'plain', 1), (2, 'Zoë Ångström', 2.5), (3, NULL, 'x'), (4, '', NULL),
  (5, 'emoji 🐟 and 中文', X'0102'), (9007199254740993, 'past 2^53', 7);
`;

async function engineWith(sql: string) {
  const engine = await createNodeEngine();
  await engine.open({ id: 'd', name: 'd.sqlite', bytes: await buildDb(sql) });
  return engine;
}

/** What a visitor makes of a row: text decoded from the heap bytes, other cells by type. */
function read(row: ScanRow, j: number): unknown {
  const type = row.type(j);
  if (type === CELL_NULL) return null;
  if (type !== CELL_TEXT) return { type };
  const start = row.textStart(j);
  const length = row.textLength(j);
  return new TextDecoder().decode(row.heap().subarray(start, start + length));
}

describe('scanning rows in place', () => {
  it('reads text as UTF-8 bytes equal to what query returns, NULLs and other types by class', async () => {
    const engine = await engineWith(SQL);
    const seen: unknown[][] = [];
    const rows = await engine.scan('d', 'SELECT a, b FROM t ORDER BY rowid', [], (row) => {
      seen.push([read(row, 0), read(row, 1)]);
    });
    const queried = await engine.query('d', 'SELECT a, b FROM t ORDER BY rowid');
    expect(rows).toBe(6);
    expect(seen.map((r) => r[0])).toEqual(queried.rows.map((r) => r[0]));
    expect(seen.map((r) => r[1])).toEqual([{ type: 1 }, { type: 2 }, 'x', null, { type: 4 }, { type: 1 }]);
  });

  it('binds parameters, a rowid past 2^53 exactly (as text) and reads it back as a string', async () => {
    const engine = await engineWith(SQL);
    const ids: string[] = [];
    await engine.scan('d', 'SELECT rowid FROM t WHERE rowid > ? ORDER BY rowid', [4], (row) => ids.push(row.string(0)));
    expect(ids).toEqual(['5', '9007199254740993']);
    const after: string[] = [];
    await engine.scan('d', 'SELECT a FROM t WHERE rowid >= ?', [9007199254740993n], (row) => after.push(row.string(0)));
    expect(after).toEqual(['past 2^53']);
  });

  it('goes through the same read gates as query, and reports SQLite errors', async () => {
    const engine = await engineWith(SQL);
    await expect(engine.scan('d', 'DELETE FROM t', [], () => undefined)).rejects.toThrow(/read/i);
    await expect(engine.scan('d', 'SELECT nope FROM t', [], () => undefined)).rejects.toThrow(/nope/);
    // The database is untouched and still scans.
    expect(await engine.scan('d', 'SELECT a FROM t', [], () => undefined)).toBe(6);
  });

  it('reads long texts that live on overflow pages', async () => {
    const long = 'word '.repeat(20_000);
    const engine = await engineWith(`CREATE TABLE l (x TEXT); INSERT INTO l VALUES ('${long}');`);
    let got = '';
    await engine.scan('d', 'SELECT x FROM l', [], (row) => {
      got = read(row, 0) as string;
    });
    expect(got).toBe(long);
  });
});
