// Red team, issue 35, item 13: a one-frame -wal whose commit says the database is 2^20 pages long
// made an 8 KB database unopenable in memory ("4.0 GiB … cannot be copied"; 2^32−1 pages: "Invalid
// typed array length"), while sqlite3 and Dowser's read-in-place mode opened it. The size a commit
// gives the database is now held to what the file and the log can give, as SQLite holds it when it
// checkpoints (wal.c, walCheckpoint: "there must be corruption somewhere"); a -journal's size
// before its transaction likewise to the file and the journal. Past that, the sidecar is not read,
// a warning says so, and the database opens as the file holds it, in memory and in place alike.
// @vitest-environment node

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli';
import { halfWrittenDb, NEW_ROWS, OLD_ROWS, oneFrameWal, oneRecordJournal, walModeDb } from './overlay-fixtures';

const dir = mkdtempSync(join(tmpdir(), 'dowser-red-team-13-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  delete process.env.DOWSER_READ;
});

const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
let made = 0;

/** The database and its sidecar side by side, as SQLite finds them. */
function place(db: Uint8Array, kind: 'wal' | 'journal', sidecar: Uint8Array): string {
  const path = join(dir, `db-${++made}.sqlite`);
  writeFileSync(path, db);
  writeFileSync(`${path}-${kind}`, sidecar);
  return path;
}

const READS = ['memory', 'file'] as const;
const SQL = 'SELECT v FROM t ORDER BY id';

/** The rows' texts as `dowser sql --json` prints them, with what it said on stderr. */
async function rowsOf(path: string, read: (typeof READS)[number]) {
  process.env.DOWSER_READ = read;
  const r = await runCli(['sql', '--db', path, SQL, '--json']);
  expect(r.code, `${read}: ${r.stderr}`).toBe(0);
  return { rows: (JSON.parse(r.stdout).rows as string[][]).map((row) => row[0]), stderr: r.stderr };
}

describe('red team 35, item 13: a -wal or -journal whose claims exceed the files', () => {
  it.each([2 ** 20, 2 ** 32 - 1])(
    'a one-frame -wal whose commit claims %i pages: ignored with a warning, the 8 KB database answers as its file holds it',
    async (claim) => {
      const { db, otherPage } = await walModeDb();
      const path = place(db, 'wal', oneFrameWal(otherPage, 2, claim));
      const before = [hash(path), hash(`${path}-wal`)];
      for (const read of READS) {
        const { rows, stderr } = await rowsOf(path, read);
        expect(rows, read).toEqual([...OLD_ROWS]);
        expect(stderr, read).toMatch(
          /^warning: The -wal file's last commit says the database is [\d,]+ pages \([\d.]+ [GT]iB\), more than the database file \(8\.0 KiB\) and the log could give/,
        );
        expect(stderr, read).toContain('was not read');
      }
      expect([hash(path), hash(`${path}-wal`)]).toEqual(before);
    },
  );

  it('the same -wal with an honest claim (2 pages) is read: the log, not the fixture, was at fault', async () => {
    const { db, otherPage } = await walModeDb();
    const path = place(db, 'wal', oneFrameWal(otherPage, 2, 2));
    for (const read of READS) {
      const { rows, stderr } = await rowsOf(path, read);
      expect(rows, read).toEqual([...NEW_ROWS]);
      expect(stderr, read).toMatch(/^note: Read the committed changes in the -wal file \(1 page write\)/);
    }
  });

  it.each([2 ** 20, 2 ** 32 - 1])(
    'a hot -journal whose header says the database was %i pages: not applied, with a warning; the file answers',
    async (claim) => {
      const { db, otherPage } = await halfWrittenDb();
      const path = place(db, 'journal', oneRecordJournal(otherPage, 2, claim));
      for (const read of READS) {
        const { rows, stderr } = await rowsOf(path, read);
        expect(rows, read).toEqual([...NEW_ROWS]);
        expect(stderr, read).toMatch(
          /^warning: The -journal file says the database was [\d,]+ pages \([\d.]+ [GT]iB\) before its transaction, more than the database file \(8\.0 KiB\) and the journal .* could hold/,
        );
        expect(stderr, read).toContain('was not applied');
      }
    },
  );

  it('the same -journal with an honest size (2 pages) is rolled back', async () => {
    const { db, otherPage } = await halfWrittenDb();
    const path = place(db, 'journal', oneRecordJournal(otherPage, 2, 2));
    for (const read of READS) {
      const { rows, stderr } = await rowsOf(path, read);
      expect(rows, read).toEqual([...OLD_ROWS]);
      expect(stderr, read).toMatch(/^warning: This database was left in the middle of a transaction/);
    }
  });
});
