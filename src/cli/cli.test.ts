import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb, SHOP_SQL } from '../test-support/build-db';
import { hotJournalDb, walDb } from '../test-support/sidecar-dbs';
import { runCli } from './test-support/run-cli';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let shop: string;
const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
let shopHash: string;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

const dowser = (...argv: string[]): Promise<Ran> => runCli(argv);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-cli-'));
  shop = join(dir, 'shop.sqlite');
  writeFileSync(
    shop,
    await buildDb(SHOP_SQL + "CREATE TABLE files (name TEXT, data BLOB); INSERT INTO files VALUES ('a', x'00ff10');"),
  );
  shopHash = hash(shop);
  const wal = await buildDb('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
  wal[18] = 2;
  wal[19] = 2;
  writeFileSync(join(dir, 'wal.sqlite'), wal);
  writeFileSync(
    join(dir, 'evil.sqlite'),
    await buildDb(
      'CREATE TABLE "bad\x1b[2Jname" ("col\nx" TEXT); INSERT INTO "bad\x1b[2Jname" VALUES (\'v\x1b[31m\');',
    ),
  );
  writeFileSync(join(dir, 'notes.csv'), 'a,b\n1,2\n'.repeat(100));
  writeFileSync(join(dir, 'notes.sqlite'), 'a,b\n1,2\n'.repeat(100));
  writeFileSync(
    join(dir, 'spoof.sqlite'),
    await buildDb(
      `CREATE TABLE "RTL\u202eexe.txt" (v TEXT, f TEXT);
       INSERT INTO "RTL\u202eexe.txt" VALUES ('osc\x1b]0;owned\x07 csi\x1b[2J c1\u009b bidi\u202e ls\u2028 ps\u2029', '=HYPERLINK("http://x.test")');`,
    ),
  );
});

afterAll(() => {
  expect(hash(shop)).toBe(shopHash); // nothing ever writes to the file
  rmSync(dir, { recursive: true, force: true });
});

describe('dowser (usage)', () => {
  it('prints usage for --help and exits 0', async () => {
    const r = await dowser('--help');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('Usage: dowser <command>');
    expect(r.stdout).toMatch(/\n {2}sql +run one read-only SQL statement/);
    expect(r.stdout).toMatch(/\n {2}schema +show the schema/);
  });

  it('prints usage to stderr and exits 2 without a command', async () => {
    expect(await dowser()).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('Usage: dowser') });
  });

  it('refuses an unknown command with usage and exit 2', async () => {
    const r = await dowser('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error \[usage\]: unknown command "frobnicate"\n\nUsage: dowser/);
  });

  it.each([
    ['sql', '--help'],
    ['schema', '-h'],
    ['help', 'sql'],
  ])('prints command help for %s %s', async (...args) => {
    const r = await dowser(...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: dowser (sql|schema) --db <file>/);
  });

  it.each([
    [['sql', 'SELECT 1'], '--db <file> is required'],
    [['sql', '--db', 'x.sqlite'], 'no SQL statement given'],
    [['sql', '--db', 'x.sqlite', 'SELECT', '1'], 'expected one SQL statement in quotes'],
    [['sql', '--db', 'x.sqlite', 'SELECT 1', '--json', '--csv'], '--json and --csv cannot be combined'],
    [['sql', '--db', 'x.sqlite', 'SELECT 1', '--max-rows', '0'], '--max-rows needs a whole number'],
    [['sql', '--db', 'x.sqlite', 'SELECT 1', '--max-rows', 'ten'], '--max-rows needs a whole number'],
    [['sql', '--db', 'x.sqlite', 'SELECT 1', '--bogus'], "Unknown option '--bogus'"],
    [['schema'], '--db <file> is required'],
    [['schema', '--db', 'x.sqlite', 'extra'], 'unexpected argument "extra"'],
  ])('usage error for %j: exit 2', async (argv, message) => {
    const r = await dowser(...argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error [usage]: ${message}`);
    expect(r.stderr).toMatch(/Run "dowser (sql|schema) --help" for usage\.\n$/);
  });
});

describe('dowser sql', () => {
  it('prints a text table by default', async () => {
    const r = await dowser('sql', '--db', shop, 'SELECT id, name, city FROM customers ORDER BY id');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(
      'id | name | city\n---+------+------\n 1 | Ada  | Paris\n 2 | Bo   | NULL\n 3 | Cy   | Oslo\n3 rows\n',
    );
  });

  it('prints JSON with columns, rows, truncated and elapsedMs, blobs as hex', async () => {
    const r = await dowser('sql', '--db', shop, 'SELECT name, data, NULL AS n FROM files', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ columns: ['name', 'data', 'n'], rows: [['a', '0x00ff10', null]], truncated: false });
    expect(typeof out.elapsedMs).toBe('number');
  });

  it('prints CSV', async () => {
    const r = await dowser(
      'sql',
      '--db',
      shop,
      "SELECT id, name || ', ' || coalesce(city, '') AS who FROM customers ORDER BY id",
      '--csv',
    );
    expect(r).toMatchObject({ code: 0, stdout: 'id,who\r\n1,"Ada, Paris"\r\n2,"Bo, "\r\n3,"Cy, Oslo"\r\n' });
  });

  it('stops at --max-rows and says so', async () => {
    const text = await dowser('sql', '--db', shop, 'SELECT id FROM orders ORDER BY id', '--max-rows', '2');
    expect(text.stdout).toMatch(/\nfirst 2 rows \(more not shown\)\n$/);
    const json = await dowser('sql', '--db', shop, 'SELECT id FROM orders ORDER BY id', '--max-rows', '2', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ rows: [[1], [2]], truncated: true });
    expect(json.stderr).toContain('only the first 2 rows');
  });

  it.each([
    ['DELETE FROM orders', 'read_only'],
    ['PRAGMA query_only = 0', 'read_only'],
    ['SELECT 1; SELECT 2', 'multiple_statements'],
    ['/* nothing */', 'empty_statement'],
    ['SELECT * FROM nowhere', 'sql_error'],
  ])('reports %j on stderr as %s with exit 1', async (sql, code) => {
    const r = await dowser('sql', '--db', shop, sql);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(new RegExp(`^error \\[${code}\\]: `));
  });

  it('takes SQL that starts with "-" after a "--" separator', async () => {
    expect(await dowser('sql', '--db', shop, '--', '-- just a comment')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^error \[empty_statement\]/),
    });
    expect(await dowser('sql', '--db', shop, '--csv', '--', '-- note\nSELECT 1 AS one')).toMatchObject({
      code: 0,
      stdout: 'one\r\n1\r\n',
    });
  });

  it('says when the file cannot be read or is not a database', async () => {
    const missing = await dowser('sql', '--db', join(dir, 'missing.sqlite'), 'SELECT 1');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error \[open_failed\]: Cannot read ".*missing\.sqlite": ENOENT/);
    // Text named as a database is refused; the same text as .csv is imported (issue 26).
    const text = await dowser('sql', '--db', join(dir, 'notes.sqlite'), 'SELECT 1');
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^error \[not_sqlite\]: .*text file/);
    const csv = await dowser('sql', '--db', join(dir, 'notes.csv'), 'SELECT count(*) FROM notes');
    expect(csv.code).toBe(0);
    // "a,b" comes again on every other line: the first row is read as data (issue 35), 200 rows.
    expect(csv.stdout).toContain('200');
    expect(csv.stderr).toContain('notes.csv: first row read as data');
  });

  it('escapes control characters from the database', async () => {
    const r = await dowser('sql', '--db', join(dir, 'evil.sqlite'), 'SELECT * FROM "bad\x1b[2Jname"');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('col\\nx');
    expect(r.stdout).toContain('v\\x1b[31m');
    expect(r.stdout).not.toContain('\x1b');
  });
});

describe('terminal and display spoofing (issue 11, items 10 and 12)', () => {
  const spoof = () => join(dir, 'spoof.sqlite');
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const RAW = /[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

  it('sql --csv never prints raw ESC, OSC, C1 or bidi controls', async () => {
    const r = await dowser('sql', '--db', spoof(), 'SELECT * FROM "RTL\u202eexe.txt"', '--csv');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stdout).toContain('osc\\x1b]0;owned\\x07 csi\\x1b[2J c1\\x9b bidi\\u202e ls\\u2028 ps\\u2029');
    expect(r.stdout.split('\r\n')[0]).toBe('v,f');
    expect(r.stdout).toContain(',"=HYPERLINK(""http://x.test"")"\r\n');
  });

  it('sql --csv --protect-formulas prefixes formulas with a quote', async () => {
    const r = await dowser('sql', '--db', spoof(), 'SELECT f FROM "RTL\u202eexe.txt"', '--csv', '--protect-formulas');
    expect(r.stdout).toBe('f\r\n"\'=HYPERLINK(""http://x.test"")"\r\n');
    expect((await dowser('sql', '--db', spoof(), 'SELECT 1', '--protect-formulas')).code).toBe(2);
  });

  it('sql --json, tools sql and tools --json escape U+202E and U+2028 and keep the values', async () => {
    const json = await dowser('sql', '--db', spoof(), 'SELECT v FROM "RTL\u202eexe.txt"', '--json');
    expect(json.stdout).not.toMatch(RAW);
    expect(json.stdout).toContain('bidi\\u202e ls\\u2028');
    expect(JSON.parse(json.stdout).rows[0][0]).toBe(
      'osc\x1b]0;owned\x07 csi\x1b[2J c1\u009b bidi\u202e ls\u2028 ps\u2029',
    );
    const text = await dowser('tools', 'sql', '--db', spoof(), 'SELECT v FROM "RTL\u202eexe.txt"');
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(RAW);
    expect(text.stdout).toContain('\\u202e');
    const toolJson = await dowser('tools', 'sql', '--db', spoof(), 'SELECT v FROM "RTL\u202eexe.txt"', '--json');
    expect(toolJson.stdout).not.toMatch(RAW);
    expect(JSON.parse(toolJson.stdout).observation).toContain('bidi\u202e');
    const schema = await dowser('schema', '--db', spoof(), '--json');
    expect(schema.stdout).not.toMatch(RAW);
    expect(JSON.parse(schema.stdout).schema.tables[0].name).toBe('RTL\u202eexe.txt');
  });
});

describe('dowser schema', () => {
  it('prints the open report, tables, columns, keys, indexes and statistics', async () => {
    const r = await dowser('schema', '--db', shop);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^shop\.sqlite: [\d.]+ KiB, SQLite 3\.\d+\.\d+, \d+ pages of \d+ bytes, integrity ok\n/);
    expect(r.stdout).toContain('3 tables, 1 view, 1 foreign key\n');
    expect(r.stdout).toContain(
      'table customers: 3 rows\n  columns:\n    id      INTEGER  PK\n    name    TEXT     NOT NULL\n',
    );
    expect(r.stdout).toContain('    customer_id  INTEGER  FK\n');
    expect(r.stdout).toContain('  foreign keys:\n    orders.customer_id -> customers.id\n');
    expect(r.stdout).toContain('view big_orders: 2 rows\n');
    expect(r.stdout).toContain("    status       0 nulls, 2 distinct, values 'open' ×2, 'paid' ×2\n");
    expect(r.stdout).toContain("    joined  0 nulls, 3 distinct, dates from '2024-01-02' to '2024-03-04'\n");
    expect(r.stdout).toContain('    city    1 null, 2 distinct');
  });

  it('leaves statistics out with --no-stats', async () => {
    const r = await dowser('schema', '--db', shop, '--no-stats');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('statistics:');
    expect(r.stdout).toContain('table orders: 4 rows');
  });

  it('prints {report, schema, stats} as JSON, blobs as hex', async () => {
    const r = await dowser('schema', '--db', shop, '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.report).toMatchObject({ name: 'shop.sqlite', quickCheck: ['ok'], issues: [] });
    expect(out.schema.tables.map((t: { name: string }) => t.name)).toEqual([
      'customers',
      'files',
      'orders',
      'big_orders',
    ]);
    expect(out.stats.find((s: { column: string }) => s.column === 'data')).toMatchObject({
      table: 'files',
      min: '0x00ff10',
      samples: ['0x00ff10'],
    });
    const noStats = JSON.parse((await dowser('schema', '--db', shop, '--json', '--no-stats')).stdout);
    expect(noStats.stats).toBeNull();
  });

  it('reads the -journal beside a database as SQLite would, says so, and changes neither file', async () => {
    const caught = await hotJournalDb();
    const path = join(mkdtempSync(join(dir, 'hot-')), 'db.sqlite');
    writeFileSync(path, caught.db);
    writeFileSync(`${path}-journal`, caught.journal);
    const before = [hash(path), hash(`${path}-journal`)];
    const r = await dowser('sql', '--db', path, "SELECT count(*), sum(v LIKE 'b%'), max(id) FROM t", '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).rows).toEqual([[300, 0, 300]]);
    expect(r.stderr).toMatch(/^warning: This database was left in the middle of a transaction/);
    const schema = await dowser('schema', '--db', path, '--no-stats');
    expect(schema.stdout).toMatch(/integrity ok\nwarning \[hot_journal_rolled_back\]/);
    expect([hash(path), hash(`${path}-journal`)]).toEqual(before);
  });

  it('reads the -wal beside a WAL-mode database; without one nothing is missing, so nothing is warned', async () => {
    const caught = await walDb();
    const path = join(mkdtempSync(join(dir, 'wal-')), 'db.sqlite');
    writeFileSync(path, caught.db);
    writeFileSync(`${path}-wal`, caught.wal);
    const r = await dowser('sql', '--db', path, "SELECT count(*), sum(v = 'committed once') FROM t", '--json');
    expect(JSON.parse(r.stdout).rows).toEqual([[251, 100]]);
    expect(r.stderr).toMatch(/^note: Read the committed changes in the -wal file/);
    const alone = await dowser('schema', '--db', join(dir, 'wal.sqlite'), '--no-stats');
    expect(alone.code).toBe(0);
    expect(alone.stdout).not.toContain('wal_without_sidecar');
  });

  it('escapes control characters in names', async () => {
    const r = await dowser('schema', '--db', join(dir, 'evil.sqlite'));
    expect(r.stdout).toContain('table bad\\x1b[2Jname: 1 row');
    expect(r.stdout).not.toContain('\x1b');
  });
});

describe('dowser on the damaged and unusual fixture files (src/test-fixtures)', () => {
  const fixture = (name: string) => join(repoRoot, 'src/test-fixtures', name);

  it.each([
    ['empty.sqlite', 'empty_file'],
    ['encrypted.sqlite', 'encrypted'],
    ['not-sqlite.db', 'not_sqlite'],
    ['truncated.sqlite', 'corrupt'],
  ])('%s: exit 1 with %s', async (name, code) => {
    const r = await dowser('schema', '--db', fixture(name));
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(new RegExp(`^error \\[${code}\\]: `));
  });

  it('corrupt.sqlite: prints the schema with the failed integrity check', async () => {
    const r = await dowser('schema', '--db', fixture('corrupt.sqlite'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/integrity check FAILED\nerror \[quick_check_failed\]: /);
  });

  it('virtual-table.sqlite: names the missing module and still reads the other tables', async () => {
    const r = await dowser('schema', '--db', fixture('virtual-table.sqlite'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning [virtual_table_module_missing]');
    expect(r.stdout).toMatch(/virtual vectors: rows unknown\n {2}error: virtual table using module "vec0"/);
  });
});

describe('bin/dowser.mjs (a real process)', () => {
  const exec = promisify(execFile);
  const dowserProcess = (...args: string[]) =>
    exec(process.execPath, [join(repoRoot, 'bin/dowser.mjs'), ...args], { cwd: repoRoot }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it('runs a query and prints JSON', async () => {
    const r = await dowserProcess('sql', '--db', shop, 'select 1 as x', '--json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ columns: ['x'], rows: [[1]], truncated: false });
  });

  it('exits 1 with read_only for a write', async () => {
    const r = await dowserProcess('sql', '--db', shop, 'DELETE FROM orders');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error \[read_only\]: /);
  });
});
