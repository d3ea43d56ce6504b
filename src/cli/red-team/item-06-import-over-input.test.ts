// Issue 35, item 6: `dowser import self.csv --out link.csv --force` through a symlink or a hard link
// overwrote its own input, because the guard compared path strings. Files are now compared by
// identity (device and inode, and their real paths), and the output is written to a temporary file
// beside it and renamed, so a failed import truncates nothing.
// @vitest-environment node
import { createHash } from 'node:crypto';
import { existsSync, linkSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli';
import { fixtureDir, type FixtureDir } from './import-fixtures';

let files: FixtureDir;
let input: string;
const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

beforeAll(() => {
  files = fixtureDir('item-06');
  input = files.write('self.csv', 'id,amount\n1,9.5\n2,12\n');
});
afterAll(() => files.remove());

describe('item 6: --out is never one of the files read', () => {
  for (const kind of ['symlink', 'hard link'] as const)
    it(`refuses an --out that is a ${kind} to an input, and leaves the input as it was`, async () => {
      const before = hash(input);
      const out = join(files.dir, kind === 'symlink' ? 'sym.csv' : 'hard.csv');
      if (kind === 'symlink') symlinkSync(input, out);
      else linkSync(input, out);
      const r = await runCli(['import', input, '--out', out, '--force']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is the same file as the input');
      expect(hash(input)).toBe(before);
    });

  it('refuses an input named through a symlinked folder, the same file as --out', async () => {
    const folder = join(files.dir, 'via');
    symlinkSync(files.dir, folder);
    const r = await runCli(['import', join(folder, 'self.csv'), '--out', input, '--force']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is the same file as the input');
  });

  // Not a bug of the old code: the write by rename must keep doing what writing through the link did.
  it('--out through a symlink to another file writes that file and keeps the link', async () => {
    const target = files.write('target.sqlite', 'old');
    const link = join(files.dir, 'to-target.sqlite');
    symlinkSync(target, link);
    const r = await runCli(['import', input, '--out', link, '--force']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(link)).toBe(true);
    expect(new TextDecoder().decode(readFileSync(target).subarray(0, 15))).toBe('SQLite format 3');
    const q = await runCli(['sql', '--db', link, 'SELECT sum(amount) FROM self']);
    expect(q.stdout).toContain('21.5');
  });
});
