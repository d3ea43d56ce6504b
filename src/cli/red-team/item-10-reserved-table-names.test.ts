// Issue 35, item 10: `sqlite_master.csv` or `sqlite_stat1.csv` could not be imported ("object name
// reserved for internal use"): SQLite keeps names starting with sqlite_ for itself. Such a table
// now gets a safe name (t_sqlite_master), said in the report; other odd file names work too.
// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli';
import { fixtureDir, type FixtureDir } from './import-fixtures';

let files: FixtureDir;

beforeAll(() => {
  files = fixtureDir('item-10');
});
afterAll(() => files.remove());

const CSV = 'id,label\n1,first\n2,second\n';

async function imported(name: string, query: (table: string) => string, table: string) {
  const path = files.write(name, CSV);
  const r = await runCli(['sql', '--db', path, '--csv', query(table)]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('item 10: table names SQLite reserves, and other odd file names', () => {
  for (const [file, table] of [
    ['sqlite_master.csv', 't_sqlite_master'],
    ['sqlite_stat1.csv', 't_sqlite_stat1'],
    ['SQLITE_Sequence.csv', 't_SQLITE_Sequence'],
  ])
    it(`${file} becomes table ${table}, and the report says why`, async () => {
      const r = await imported(file, (t) => `SELECT count(*) FROM ${t}`, table);
      expect(r.stdout.trim().split(/\r?\n/)[1]).toBe('2');
      expect(r.stderr).toContain(`${file} became table ${table} (SQLite keeps names starting with sqlite_ for itself)`);
    });

  // Guards, not bugs of the old code: these names worked and must keep working.
  it('a name of digits only, an empty base name and an SQL keyword all import', async () => {
    expect((await imported('2024.csv', (t) => `SELECT sum(id) FROM ${t}`, 't_2024')).stdout).toContain('3');
    expect((await imported('.csv', (t) => `SELECT sum(id) FROM ${t}`, 't_table')).stdout).toContain('3');
    expect((await imported('select.csv', (t) => `SELECT sum(id) FROM "${t}"`, 'select')).stdout).toContain('3');
  });

  it('a very long file name is cut to a table name of at most 64 characters, and said', async () => {
    const long = `${'quarterly_revenue_'.repeat(12)}final.csv`;
    const path = files.write(long, CSV);
    const r = await runCli(['sql', '--db', path, '--csv', "SELECT name FROM sqlite_master WHERE type = 'table'"]);
    expect(r.code, r.stderr).toBe(0);
    const table = 'quarterly_revenue_'.repeat(12).slice(0, 64).replace(/_+$/, '');
    expect(r.stdout.trim().split(/\r?\n/)[1]).toBe(table);
    expect(r.stderr).toContain(`became table ${table} (its file name cut to 64 characters)`);
  });
});
