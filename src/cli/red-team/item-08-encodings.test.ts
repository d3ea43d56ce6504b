// Issue 35, item 8: one invalid byte made the whole file Windows-1252 without a word (José →
// JosÃ©), and a UTF-16 TSV with its byte-order mark (a spreadsheet's "Unicode text") failed with
// "unrecognized token". The encoding is now decided and said: a byte-order mark names it, valid
// UTF-8 is UTF-8, a file of UTF-8 with a few stray bytes stays UTF-8 (the stray bytes counted and
// shown as U+FFFD), Windows-1252 only when the bytes look like it; --encoding chooses another.
// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli';
import { fixtureDir, latin1, utf16le, utf8WithStrayByte, type FixtureDir } from './import-fixtures';

let files: FixtureDir;

beforeAll(() => {
  files = fixtureDir('item-08');
});
afterAll(() => files.remove());

async function rows(path: string, query: string, ...flags: string[]) {
  const r = await runCli(['sql', '--db', path, '--csv', ...flags, query]);
  expect(r.code, r.stderr).toBe(0);
  return { ...r, lines: r.stdout.trim().split(/\r?\n/).slice(1) };
}

describe('item 8: the encoding is decided and said', () => {
  it('UTF-8 with one stray byte stays UTF-8: the rest reads right, and the stray byte is counted', async () => {
    const path = files.write('people.csv', utf8WithStrayByte('name,city\nJosé,Málaga\nRenée,Genève\nBad', ',Zürich\n'));
    const r = await rows(path, 'SELECT name, city FROM people');
    expect(r.lines).toEqual(['José,Málaga', 'Renée,Genève', 'Bad\uFFFD,Zürich']);
    expect(r.stderr).toContain(
      'people.csv: read as UTF-8, but 1 byte is no UTF-8 and shows as \uFFFD (first on line 4); --encoding windows-1252 if the file is Windows-1252',
    );
    // Garbled, the names no longer show what the first row is: the header is said.
    const as1252 = await rows(path, 'SELECT name FROM people LIMIT 1', '--encoding', 'windows-1252', '--header', 'yes');
    expect(as1252.lines).toEqual(['JosÃ©']);
    expect(as1252.stderr).toContain('people.csv: read as Windows-1252 (as --encoding says)');
  });

  it('a UTF-16 TSV with its byte-order mark imports, and says it was UTF-16', async () => {
    const path = files.write('export.txt', utf16le('name\tcity\tseats\r\nZoë\tKöln\t12\r\nÅsa\tMalmö\t8\r\n'));
    const tsv = files.write('export.tsv', utf16le('name\tcity\tseats\r\nZoë\tKöln\t12\r\nÅsa\tMalmö\t8\r\n'));
    for (const [file, table] of [
      [tsv, 'export'],
      [path, 'export'],
    ]) {
      const r = await rows(file, `SELECT name, city, seats + 1 FROM ${table} ORDER BY seats`);
      expect(r.lines).toEqual(['Åsa,Malmö,9', 'Zoë,Köln,13']);
      expect(r.stderr).toMatch(/export\.(tsv|txt): read as UTF-16LE \(its byte-order mark says so\)/);
    }
  });

  it('Windows-1252 text with no UTF-8 in it reads as Windows-1252, and says so', async () => {
    const path = files.write('cafes.csv', latin1('name,seats\nCafé Müller,12\nLa Crème,8\n'));
    const r = await rows(path, 'SELECT name FROM cafes ORDER BY seats');
    expect(r.lines).toEqual(['La Crème', 'Café Müller']);
    expect(r.stderr).toContain(
      'cafes.csv: read as Windows-1252 (it is no UTF-8, and its bytes look like Windows-1252)',
    );
  });

  it('--encoding utf-16 reads a file without its mark; a wrong value is a usage error', async () => {
    const bytes = utf16le('a,b\n1,2\n').subarray(2);
    const path = files.write('nomark.csv', bytes);
    const r = await rows(path, 'SELECT a + b FROM nomark', '--encoding', 'utf-16');
    expect(r.lines).toEqual(['3']);
    const bad = await runCli(['sql', '--db', path, '--encoding', 'latin9', 'SELECT 1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--encoding must be utf-8, utf-16, utf-16le, utf-16be or windows-1252');
  });
});
