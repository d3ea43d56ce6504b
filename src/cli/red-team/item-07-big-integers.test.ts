// Issue 35, item 7: integers past 2^53 in a CSV became REAL and were rounded
// (1234567890123456789 → …768), though the import is said to be lossless. A whole number within
// SQLite's 64 bits now stays INTEGER, bound from its digits so SQLite stores it exactly; one beyond
// 64 bits makes its column TEXT, with a note; a decimal with more digits than a REAL keeps is
// rounded as any REAL is, and the note says so.
// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli';
import { fixtureDir, type FixtureDir } from './import-fixtures';

let files: FixtureDir;

beforeAll(() => {
  files = fixtureDir('item-07');
});
afterAll(() => files.remove());

const EXACT = [
  '9007199254740991', // 2^53 - 1
  '9007199254740993', // 2^53 + 1: the first a double cannot hold
  '-9007199254740993',
  '1234567890123456789',
  '9223372036854775807', // 2^63 - 1
  '-9223372036854775808', // -2^63
  '42',
];

async function sql(path: string, query: string) {
  const r = await runCli(['sql', '--db', path, '--csv', query]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('item 7: whole numbers past 2^53', () => {
  it('stay INTEGER and exact, around ±2^53 and up to ±2^63', async () => {
    const path = files.write('ids.csv', `id\n${EXACT.join('\n')}\n`);
    const r = await sql(path, 'SELECT typeof(id), CAST(id AS TEXT) FROM ids');
    expect(r.stdout.trim().split(/\r?\n/).slice(1)).toEqual(EXACT.map((v) => `integer,${v}`));
    expect(r.stderr).toContain('columns id INTEGER');
    // The digits are the number SQLite compares, not text that looks like it.
    const eq = await sql(path, 'SELECT count(*) FROM ids WHERE id = 1234567890123456789 AND id + 0 = id');
    expect(eq.stdout.trim().split(/\r?\n/)[1]).toBe('1');
  });

  it('a whole number beyond 64 bits makes its column TEXT, kept as written, and says so', async () => {
    const path = files.write('huge.csv', 'n\n1\n9223372036854775808\n-99999999999999999999\n');
    const r = await sql(path, 'SELECT typeof(n), n FROM huge');
    expect(r.stdout.trim().split(/\r?\n/).slice(1)).toEqual([
      'text,1',
      'text,9223372036854775808',
      'text,-99999999999999999999',
    ]);
    expect(r.stderr).toContain('columns n TEXT');
    expect(r.stderr).toContain(
      'column n: 9223372036854775808 is beyond the 64-bit integers SQLite stores: the column is TEXT so that every value is kept as written',
    );
  });

  it('a column found to need it past the first rows is imported again the same way', async () => {
    const rows = Array.from({ length: 10_005 }, (_, i) => String(i + 1));
    rows.push('1234567890123456789');
    const path = files.write('late.csv', `n\n${rows.join('\n')}\n`);
    const r = await sql(path, 'SELECT typeof(n), CAST(n AS TEXT) FROM late ORDER BY rowid DESC LIMIT 1');
    expect(r.stdout.trim().split(/\r?\n/)[1]).toBe('integer,1234567890123456789');
  });

  it('decimals with more digits than a REAL keeps are rounded, and the note says which and how', async () => {
    const path = files.write('m.csv', 'x\n0.5\n0.30000000000000004\n3.14159265358979323846\n');
    const r = await sql(path, 'SELECT typeof(x) FROM m');
    expect(r.stdout.trim().split(/\r?\n/).slice(1)).toEqual(['real', 'real', 'real']);
    // 0.30000000000000004 is a double's own digits (kept exactly): only the 21-digit pi is rounded.
    expect(r.stderr).toContain(
      'column x: 1 value has more digits than a REAL keeps and was rounded (row 4: 3.14159265358979323846 → 3.141592653589793); import the column as TEXT to keep the digits',
    );
  });
});
