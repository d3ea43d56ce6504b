// A CSV, TSV or JSON file given to --db is imported into a new in-memory database (issue 26): the
// table, its inferred types, every row (the ones that did not fit said with their row numbers),
// and the file itself never written.
// @vitest-environment node
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../adapters/sqljs/node';
import { runCli } from './test-support/run-cli';

let dir: string;
const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-import-'));
  writeFileSync(join(dir, 'sales.csv'), 'region,zip,units,price\nNorth,00501,3,9.5\nSouth,10001,,12\nEast,20002,5\n');
  writeFileSync(join(dir, 'people.jsonl'), '{"name":"Ada","age":36}\n{"name":"Bo","age":41}\n');
  // Windows-1252 (a spreadsheet's export): "Café" with é as the single byte 0xE9.
  writeFileSync(
    join(dir, 'cafes.csv'),
    Buffer.from([...Buffer.from('name,seats\nCaf'), 0xe9, ...Buffer.from(',12\n')]),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dowser on table files', () => {
  it('imports a CSV: types inferred (a code with leading zeros stays text), rows kept, misfits said', async () => {
    const file = join(dir, 'sales.csv');
    const before = hash(file);
    const r = await runCli([
      'sql',
      '--db',
      file,
      'SELECT region, zip, typeof(zip), units, price FROM sales ORDER BY region',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('East   | 20002 | text        |     5 |  NULL');
    expect(r.stdout).toContain('North  | 00501 | text        |     3 |   9.5');
    expect(r.stderr).toContain(
      'note: sales.csv became table sales: 3 rows; columns region TEXT, zip TEXT, units INTEGER, price REAL.',
    );
    expect(r.stderr).toContain('warning: sales.csv, row 4: 3 fields, 4 expected (the missing ones are NULL)');
    expect(hash(file)).toBe(before);
  });

  it('imports JSON Lines and Windows-1252 text; the imported database is read-only like any other', async () => {
    const people = await runCli(['sql', '--db', join(dir, 'people.jsonl'), 'SELECT sum(age) FROM people']);
    expect(people.stdout).toContain('77');
    const cafes = await runCli(['sql', '--db', join(dir, 'cafes.csv'), 'SELECT name, seats + 1 FROM cafes']);
    expect(cafes.stdout).toContain('Café');
    expect(cafes.stdout).toContain('13');
    const write = await runCli(['sql', '--db', join(dir, 'sales.csv'), "UPDATE sales SET region = 'x'"]);
    expect(write.code).not.toBe(0);
    expect(write.stderr).toMatch(/read-only|not allowed|only reads/i);
  });

  it('dowser import writes one SQLite file with a table per file; it opens like any other, and stays read-only after the export', async () => {
    const out = join(dir, 'together.sqlite');
    const inputs = ['sales.csv', 'people.jsonl'].map((f) => join(dir, f));
    const before = inputs.map(hash);
    const r = await runCli(['import', ...inputs, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('people.jsonl became table people: 2 rows');
    expect(r.stderr).toContain('wrote ');
    expect(inputs.map(hash)).toEqual(before);
    const q = await runCli(['sql', '--db', out, 'SELECT (SELECT count(*) FROM sales), (SELECT sum(age) FROM people)']);
    expect(q.stdout).toMatch(/3\s*\|\s*77/);
    const again = await runCli(['import', inputs[0], '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('add --force');
    expect((await runCli(['import', inputs[0], '--out', out, '--force'])).code).toBe(0);
    expect((await runCli(['import', join(dir, 'book.xlsx'), '--out', out])).stderr).toContain('is not a table file');
  });

  it('dowser import --type imports a column as the person says; a name no file has is refused', async () => {
    const out = join(dir, 'typed.sqlite');
    const r = await runCli([
      'import',
      join(dir, 'sales.csv'),
      '--out',
      out,
      '--force',
      '--type',
      'units=TEXT',
      '--type',
      'sales.price=INTEGER',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('columns region TEXT, zip TEXT, units TEXT, price INTEGER');
    const q = await runCli([
      'sql',
      '--db',
      out,
      "SELECT typeof(units), typeof(price) FROM sales WHERE region = 'North'",
    ]);
    // 9.5 is no whole number: kept as SQLite stores it, a real.
    expect(q.stdout).toMatch(/text\s*\|\s*real/);
    const wrong = await runCli(['import', join(dir, 'sales.csv'), '--out', out, '--force', '--type', 'amount=REAL']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--type names no column of these files: amount');
    const bad = await runCli(['import', join(dir, 'sales.csv'), '--out', out, '--force', '--type', 'units=DATE']);
    expect(bad.stderr).toContain('--type needs <column>=TEXT, INTEGER or REAL');
  });

  it('an imported database exported keeps refusing writes (sql.js resets pragmas when it exports)', async () => {
    const engine = await createNodeEngine();
    await engine.open({
      id: 'i',
      name: 'sales.csv',
      bytes: new Uint8Array(),
      tables: [{ name: 'sales.csv', bytes: readFileSync(join(dir, 'sales.csv')) }],
    });
    const bytes = await engine.exportImported('i');
    expect(new TextDecoder().decode(bytes.subarray(0, 15))).toBe('SQLite format 3');
    expect((await engine.query('i', 'SELECT query_only FROM pragma_query_only')).rows).toEqual([[1]]);
    await expect(engine.query('i', "UPDATE sales SET region = 'x'")).rejects.toMatchObject({ code: 'read_only' });
    await engine.open({ id: 'f', name: 'f.sqlite', bytes: bytes.slice() });
    await expect(engine.exportImported('f')).rejects.toThrow(/Only a database made from CSV/);
  });
});
