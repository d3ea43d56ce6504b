// The journal is read as SQLite reads it: the files below are written by SQLite, and every
// variant (whole, cut short, damaged, cold, of a multi-database transaction) must give the bytes
// SQLite itself leaves in the database after opening it.

import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../random';
import { hotJournalDb, sqliteOpens, type HotJournalDb } from '../../test-support/sidecar-dbs';
import { applyOverlay, bytesFile } from './page-overlay';
import { readRollbackJournal } from './rollback-journal';

let caught: HotJournalDb;
beforeAll(async () => {
  caught = await hotJournalDb();
});

/** The database as Dowser reads it beside `journal`. */
function rolledBack(db: Uint8Array, journal: Uint8Array): Uint8Array {
  const reading = readRollbackJournal(bytesFile(journal), 1024, db.length);
  return reading.kind === 'hot' ? applyOverlay(db.slice(), bytesFile(journal), reading.overlay) : db;
}

describe('readRollbackJournal', () => {
  it('undoes an unfinished transaction byte for byte, as SQLite does', async () => {
    expect(Buffer.from(caught.db).equals(Buffer.from(caught.committed))).toBe(false); // half-written
    const reading = readRollbackJournal(bytesFile(caught.journal), 1024, caught.db.length);
    expect(reading).toMatchObject({ kind: 'hot', overlay: { pageSize: 1024, pageCount: 154 } });
    const ours = rolledBack(caught.db, caught.journal);
    expect(Buffer.from(ours).equals(Buffer.from(caught.committed))).toBe(true);
    expect(Buffer.from(ours).equals(Buffer.from(await sqliteOpens(caught)))).toBe(true);
  });

  it('stops where SQLite stops in a journal cut short or damaged', async () => {
    const { db, journal } = caught;
    const record = 1024 + 8;
    const variants: Array<[string, Uint8Array]> = [
      ['cut in the header', journal.subarray(0, 20)],
      ['cut inside the first sector', journal.subarray(0, 300)],
      ['cut after the header', journal.subarray(0, 512)],
      ['cut inside the first record', journal.subarray(0, 512 + 500)],
      ['cut inside the fourth record', journal.subarray(0, 512 + 3 * record + 700)],
      ['cut in the second segment', journal.subarray(0, Math.floor(journal.length * 0.6))],
      ['with a record whose checksum fails', damaged(journal, 512 + 2 * record + 300)],
      ['with a damaged second header', damaged(journal, secondHeader(journal))],
      ['whose header was zeroed (a closed PERSIST journal)', zeroed(journal, 0, 28)],
      ['whose page size is out of range', withU32(journal, 24, 1000)],
    ];
    for (const [what, variant] of variants) {
      const sqlite = await sqliteOpens({ db, journal: variant });
      expect(Buffer.from(rolledBack(db, variant)).equals(Buffer.from(sqlite)), what).toBe(true);
    }
  });

  it('agrees with SQLite on journals cut or damaged at random (60 seeded cases)', async () => {
    const next = mulberry32(69);
    for (let n = 0; n < 60; n++) {
      const at = Math.floor(next() * caught.journal.length);
      const variant = n % 2 ? caught.journal.subarray(0, at) : damaged(caught.journal, at);
      const sqlite = await sqliteOpens({ db: caught.db, journal: variant });
      expect(Buffer.from(rolledBack(caught.db, variant)).equals(Buffer.from(sqlite)), `case ${n} at ${at}`).toBe(true);
    }
  });

  it('is cold when empty or zeroed at the start: nothing to undo', () => {
    expect(readRollbackJournal(bytesFile(new Uint8Array(0)), 1024, caught.db.length)).toEqual({ kind: 'cold' });
    expect(readRollbackJournal(bytesFile(zeroed(caught.journal, 0, 1)), 1024, caught.db.length)).toEqual({
      kind: 'cold',
    });
  });

  it('within what the file and the journal hold, a longer size before the transaction is SQLite’s: the file grown to it', async () => {
    const limit = Math.floor((caught.db.length + caught.journal.length + 65536) / 1024);
    const grown = withU32(caught.journal, 16, limit);
    expect(readRollbackJournal(bytesFile(grown), 1024, caught.db.length)).toMatchObject({
      kind: 'hot',
      overlay: { pageCount: limit },
    });
    const sqlite = await sqliteOpens({ db: caught.db, journal: grown });
    expect(Buffer.from(rolledBack(caught.db, grown)).equals(Buffer.from(sqlite))).toBe(true);
  });

  it('is not applied when its header says the database was longer than the file and the journal could hold', () => {
    const limit = Math.floor((caught.db.length + caught.journal.length + 65536) / 1024);
    for (const pages of [limit + 1, 2 ** 20, 2 ** 32 - 1]) {
      const lying = withU32(caught.journal, 16, pages);
      expect(readRollbackJournal(bytesFile(lying), 1024, caught.db.length), `${pages} pages`).toEqual({
        kind: 'oversized',
        pageCount: pages,
        pageSize: 1024,
      });
    }
  });

  it('leaves a journal of a multi-database transaction to SQLite, as SQLite does without its super-journal', async () => {
    const name = new TextEncoder().encode('/data/main.db-mj1A2B3C4D');
    const tail = new Uint8Array(4 + name.length + 16);
    const view = new DataView(tail.buffer);
    view.setUint32(0, Math.floor(0x40000000 / 1024) + 1);
    tail.set(name, 4);
    view.setUint32(4 + name.length, name.length);
    view.setUint32(
      8 + name.length,
      name.reduce((s, b) => s + b, 0),
    );
    tail.set(caught.journal.subarray(0, 8), 12 + name.length);
    const journal = new Uint8Array([...caught.journal, ...tail]);
    expect(readRollbackJournal(bytesFile(journal), 1024, caught.db.length)).toEqual({
      kind: 'multi_database',
      superJournal: '/data/main.db-mj1A2B3C4D',
    });
    // SQLite finds no such super-journal, takes the transaction as committed and leaves the file.
    expect(Buffer.from(await sqliteOpens({ db: caught.db, journal })).equals(Buffer.from(caught.db))).toBe(true);
  });
});

function damaged(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] ^= 0xff;
  return copy;
}

function zeroed(bytes: Uint8Array, from: number, to: number): Uint8Array {
  const copy = bytes.slice();
  copy.fill(0, from, to);
  return copy;
}

function withU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(at, value);
  return copy;
}

/** Where the journal's second header starts (its first segment's records end on a sector). */
function secondHeader(journal: Uint8Array): number {
  const records = new DataView(journal.buffer, journal.byteOffset).getUint32(8);
  return Math.ceil((512 + records * (1024 + 8)) / 512) * 512;
}
