// The log is read as SQLite recovers it: the files below are written by SQLite, and every variant
// (whole, cut short, damaged) must give the database SQLite makes of it by a checkpoint.

import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../random';
import { sqliteOpens, walDb, type WalDb } from '../../test-support/sidecar-dbs';
import { applyOverlay, bytesFile } from './page-overlay';
import { readWal } from './wal-file';

let caught: WalDb;
beforeAll(async () => {
  caught = await walDb();
});

/** The database as Dowser reads it beside `wal`. */
function caughtUp(db: Uint8Array, wal: Uint8Array): Uint8Array {
  const reading = readWal(bytesFile(wal));
  return reading.kind === 'pages' ? applyOverlay(db.slice(), bytesFile(wal), reading.overlay) : db;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('readWal', () => {
  it("reads the committed frames and leaves an unfinished transaction's, as a checkpoint does", async () => {
    const reading = readWal(bytesFile(caught.wal));
    expect(reading).toMatchObject({ kind: 'pages', overlay: { pageSize: 1024 } });
    expect(same(caughtUp(caught.db, caught.wal), caught.checkpointed)).toBe(true);
    expect(same(caughtUp(caught.db, caught.wal), await sqliteOpens(caught))).toBe(true);
    expect(same(caught.db, caught.checkpointed)).toBe(false); // without the log, both commits are missing
  });

  it('agrees with SQLite on logs cut or damaged at random (60 seeded cases)', async () => {
    const next = mulberry32(69);
    for (let n = 0; n < 60; n++) {
      const at = Math.floor(next() * caught.wal.length);
      const variant = caught.wal.slice(0, n % 2 ? at : undefined);
      if (n % 2 === 0) variant[at] ^= 0xff;
      const sqlite = await sqliteOpens({ db: caught.db, wal: variant });
      expect(same(caughtUp(caught.db, variant), sqlite), `case ${n} at ${at}`).toBe(true);
    }
  });

  it('finds nothing in an empty log, a header cut short or a header that fails its checksum', () => {
    expect(readWal(bytesFile(new Uint8Array(0)))).toEqual({ kind: 'empty' });
    expect(readWal(bytesFile(caught.wal.subarray(0, 20)))).toEqual({ kind: 'empty' });
    const bad = caught.wal.slice();
    bad[17] ^= 1; // a salt byte: the header checksum fails
    expect(readWal(bytesFile(bad))).toEqual({ kind: 'empty' });
  });
});
