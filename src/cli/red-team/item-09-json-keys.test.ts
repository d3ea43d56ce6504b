// Issue 35, item 9: JSON keys named like Object.prototype's members broke the import: a record
// without `constructor` or `valueOf` failed it, and one without `__proto__` got "{}" for the
// missing value. Keys are now read as the file's own (Object.hasOwn), never looked up through
// the prototype. And a top-level object (not an array) is read as rows: its keys are data, so they
// become cells of a `key` column, not column names.
// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli';
import { fixtureDir, type FixtureDir } from './import-fixtures';

let files: FixtureDir;

beforeAll(() => {
  files = fixtureDir('item-09');
});
afterAll(() => files.remove());

const KEYS = ['constructor', 'valueOf', 'toString', '__proto__', 'hasOwnProperty'];

async function csvRows(path: string, query: string) {
  const r = await runCli(['sql', '--db', path, '--csv', query]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim().split(/\r?\n/);
}

describe('item 9: JSON keys that are Object.prototype names', () => {
  it('a JSON array whose records each lack some of them imports, a missing value NULL', async () => {
    // Each record has one of the keys; the others are missing from it.
    const records = KEYS.map((k, i) => `{"n":${i},${JSON.stringify(k)}:"v${i}"}`);
    const path = files.write('odd.json', `[${records.join(',')}]`);
    const cols = KEYS.map((k) => `quote("${k}")`).join(', ');
    const lines = await csvRows(path, `SELECT n, ${cols} FROM odd ORDER BY n`);
    expect(lines.slice(1)).toEqual(
      KEYS.map((_, i) => [String(i), ...KEYS.map((__, j) => (i === j ? `'v${i}'` : 'NULL'))].join(',')),
    );
  });

  it('JSON Lines the same', async () => {
    const path = files.write('odd.jsonl', KEYS.map((k, i) => `{"n":${i},${JSON.stringify(k)}:${i}}`).join('\n'));
    const lines = await csvRows(
      path,
      'SELECT count(*), count("constructor"), count("__proto__"), sum("valueOf") FROM odd',
    );
    expect(lines[1]).toBe('5,1,1,1');
  });

  it('a top-level object is read as rows: its keys become cells of a key column', async () => {
    const path = files.write(
      'by-name.json',
      '{"Ada": {"age": 36, "city": "London"}, "__proto__": {"age": 1}, "constructor": {"age": 41, "city": "Paris"}}',
    );
    const lines = await csvRows(path, 'SELECT key, age, city FROM by_name ORDER BY age');
    expect(lines).toEqual(['key,age,city', '__proto__,1,', 'Ada,36,London', 'constructor,41,Paris']);
    const scalars = files.write('counts.json', '{"toString": 3, "valueOf": 4, "apples": "five"}');
    expect(await csvRows(scalars, 'SELECT key, value FROM counts')).toEqual([
      'key,value',
      'toString,3',
      'valueOf,4',
      'apples,five',
    ]);
  });
});
