// A database opened with its -journal or -wal (issue: a hot journal was silently ignored): the
// engine reads it as SQLite would, in memory and in place, and no file or buffer given to it
// changes. The files are written by SQLite itself (test-support/sidecar-dbs.ts).

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReadChoice } from '../../core/db/file-check';
import { hotJournalDb, walDb, type HotJournalDb, type WalDb } from '../../test-support/sidecar-dbs';
import { createNodeEngine } from './node';
import type { SqljsEngine } from './engine';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let engine: SqljsEngine;
let hot: HotJournalDb;
let wal: WalDb;
beforeAll(async () => {
  engine = await createNodeEngine();
  [hot, wal] = await Promise.all([hotJournalDb(), walDb()]);
});

/** Writes `files` as `<dir>/db.sqlite` and its sidecars; returns their paths. */
function onDisk(files: { db: Uint8Array; journal?: Uint8Array; wal?: Uint8Array }) {
  const path = join(mkdtempSync(join(tmpdir(), 'dowser-sidecar-')), 'db.sqlite');
  writeFileSync(path, files.db);
  if (files.journal) writeFileSync(`${path}-journal`, files.journal);
  if (files.wal) writeFileSync(`${path}-wal`, files.wal);
  return { path, journal: `${path}-journal`, wal: `${path}-wal` };
}

const rows = async (id: string) =>
  (await engine.query(id, "SELECT count(*), sum(v LIKE 'b%'), max(id) FROM t")).rows[0];

describe('a database with a hot -journal', () => {
  it('without its journal reads half-written pages (what the issue saw): the reason to pass it', async () => {
    await engine.open({ id: 'half', name: 'db.sqlite', bytes: hot.db });
    expect(await rows('half').catch((e: Error) => e.message)).not.toEqual([300, 0, 300]);
    await engine.close('half');
  });

  it.each<ReadChoice>(['memory', 'file'])(
    'is rolled back as SQLite would, read into %s, and says so; the files keep every byte',
    async (read) => {
      const files = onDisk(hot);
      const before = [files.path, files.journal].map((p) => sha256(readFileSync(p)));
      const report = await engine.open({
        id: `hot-${read}`,
        name: 'db.sqlite',
        bytes: { path: files.path },
        journal: { path: files.journal },
        read,
      });
      expect(report.readFrom).toBe(read);
      expect(report.issues).toEqual([expect.objectContaining({ level: 'warning', code: 'hot_journal_rolled_back' })]);
      expect(report.sizeBytes).toBe(hot.committed.length);
      expect(await rows(`hot-${read}`)).toEqual([300, 0, 300]);
      expect((await engine.check(`hot-${read}`)).quickCheck).toEqual(['ok']);
      await engine.close(`hot-${read}`);
      expect([files.path, files.journal].map((p) => sha256(readFileSync(p)))).toEqual(before);
    },
  );

  it("leaves a caller's bytes as they were", async () => {
    const [db, journal] = [hot.db.slice(), hot.journal.slice()];
    await engine.open({ id: 'bytes', name: 'db.sqlite', bytes: db, journal });
    expect(await rows('bytes')).toEqual([300, 0, 300]);
    await engine.close('bytes');
    expect(sha256(db)).toBe(sha256(hot.db));
    expect(sha256(journal)).toBe(sha256(hot.journal));
  });
});

describe('sidecars with nothing to apply', () => {
  it('an empty journal or log (journal_mode TRUNCATE, a log after a checkpoint) changes nothing', async () => {
    for (const empty of [new Uint8Array(0), new Blob([])]) {
      const report = await engine.open({
        id: 'empty',
        name: 'db.sqlite',
        bytes: hot.committed,
        journal: empty,
        wal: empty,
      });
      expect(report.issues).toEqual([]);
      expect(await rows('empty')).toEqual([300, 0, 300]);
    }
    await engine.close('empty');
  });
});

describe('a WAL-mode database with its -wal', () => {
  const committed = async (id: string) =>
    (await engine.query(id, "SELECT count(*), sum(v = 'committed once'), max(id) FROM t")).rows[0];

  it.each<ReadChoice>(['memory', 'file'])(
    'reads the committed changes, read into %s, without the missing-file warning',
    async (read) => {
      const files = onDisk(wal);
      const before = [files.path, files.wal].map((p) => sha256(readFileSync(p)));
      const id = `wal-${read}`;
      const report = await engine.open({
        id,
        name: 'db.sqlite',
        bytes: { path: files.path },
        wal: { path: files.wal },
        read,
      });
      expect(report.issues.map((i) => i.code)).toEqual(['wal_read']);
      expect(await committed(id)).toEqual([251, 100, 5000]);
      expect((await engine.check(id)).quickCheck).toEqual(['ok']);
      await engine.close(id);
      expect([files.path, files.wal].map((p) => sha256(readFileSync(p)))).toEqual(before);
    },
  );

  it('without it warns that changes may be missing, unless the caller looked and found none', async () => {
    const without = await engine.open({ id: 'nowal', name: 'db.sqlite', bytes: wal.db });
    expect(without.issues.map((i) => i.code)).toEqual(['wal_without_sidecar']);
    expect(await committed('nowal')).toEqual([300, 0, 300]);
    const looked = await engine.open({ id: 'nowal', name: 'db.sqlite', bytes: wal.db, wal: null });
    expect(looked.issues).toEqual([]);
    await engine.close('nowal');
  });
});
