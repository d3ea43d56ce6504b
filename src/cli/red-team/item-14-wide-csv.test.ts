// Issue 35, item 14: a 100,000-column CSV made the page draw 39,037 selects (25 s to appear),
// then failed at the import (SQLite allows 2,000 columns). A file wider than SQLite allows is now
// refused before any preview or import, with a message that names the count and the limit; a
// wide file within it imports.
// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewTableFile } from '../../core/import/table-preview';
import { runCli } from '../test-support/run-cli';
import { fixtureDir, wideCsv, type FixtureDir } from './import-fixtures';

let files: FixtureDir;

beforeAll(() => {
  files = fixtureDir('item-14');
});
afterAll(() => files.remove());

const TOO_WIDE = /wide\.csv has 100,000 columns; SQLite allows at most 2,000 in a table/;

describe('item 14: a file wider than SQLite allows', () => {
  it('dowser import and --db refuse it with the count and the limit', async () => {
    const path = files.write('wide.csv', wideCsv(100_000));
    const r = await runCli(['import', path, '--out', `${files.dir}/wide.sqlite`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(TOO_WIDE);
    const q = await runCli(['sql', '--db', path, 'SELECT 1']);
    expect(q.code).toBe(1);
    expect(q.stderr).toMatch(TOO_WIDE);
  });

  it('the preview of its first 256 KiB (a first row cut short) is refused too, before anything is drawn', () => {
    const bytes = new TextEncoder().encode(wideCsv(100_000));
    expect(() => previewTableFile('wide.csv', bytes.subarray(0, 256 * 1024), false)).toThrow(
      /wide\.csv has at least [\d,]+ columns; SQLite allows at most 2,000 in a table/,
    );
  });

  // A guard (it worked before): the limit is SQLite's, not below it.
  it('2,000 columns import', async () => {
    const path = files.write('edge.csv', wideCsv(2000));
    const r = await runCli(['sql', '--db', path, 'SELECT c1, c2000 FROM edge ORDER BY c1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1999/);
  });
});
