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
  const reading = readWal(bytesFile(wal), db.length);
  return reading.kind === 'pages' ? applyOverlay(db.slice(), bytesFile(wal), reading.overlay) : db;
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('readWal', () => {
  it("reads the committed frames and leaves an unfinished transaction's, as a checkpoint does", async () => {
    const reading = readWal(bytesFile(caught.wal), caught.db.length);
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
    expect(readWal(bytesFile(new Uint8Array(0)), caught.db.length)).toEqual({ kind: 'empty' });
    expect(readWal(bytesFile(caught.wal.subarray(0, 20)), caught.db.length)).toEqual({ kind: 'empty' });
    const bad = caught.wal.slice();
    bad[17] ^= 1; // a salt byte: the header checksum fails
    expect(readWal(bytesFile(bad), caught.db.length)).toEqual({ kind: 'empty' });
  });

  it('is not read when its last commit makes the database longer than the file and the log can, where SQLite will not checkpoint it', async () => {
    const reading = readWal(bytesFile(caught.wal), caught.db.length);
    if (reading.kind !== 'pages') throw new Error('the fixture log has commits');
    const { frames } = reading;
    // wal.c walCheckpoint: corrupt past the file, the log's committed frames and 64 KiB.
    const limit = Math.floor((caught.db.length + 65536 + frames * 1024) / 1024);
    const atLimit = withLastCommitSize(caught.wal, frames, limit);
    expect(readWal(bytesFile(atLimit), caught.db.length)).toMatchObject({
      kind: 'pages',
      overlay: { pageCount: limit },
    });
    await expect(sqliteOpens({ db: caught.db, wal: atLimit })).resolves.toBeInstanceOf(Uint8Array);
    for (const pages of [limit + 1, 2 ** 20, 2 ** 32 - 1]) {
      const lying = withLastCommitSize(caught.wal, frames, pages);
      expect(readWal(bytesFile(lying), caught.db.length), `${pages} pages`).toEqual({
        kind: 'oversized',
        pageCount: pages,
        pageSize: 1024,
        frames,
      });
    }
    // SQLite reads such a log, but calls it corrupt when it checkpoints it.
    await expect(
      sqliteOpens({ db: caught.db, wal: withLastCommitSize(caught.wal, frames, limit + 1) }),
    ).rejects.toThrow(/malformed|corrupt/i);
  });
});

/**
 * `wal` with the commit at frame `commitFrame` (1-based) saying the database is `pages` long, and
 * every frame's checksum written again (each one runs on from the frame before).
 */
function withLastCommitSize(wal: Uint8Array, commitFrame: number, pages: number): Uint8Array {
  const copy = wal.slice();
  const view = new DataView(copy.buffer);
  const littleEndian = (view.getUint32(0) & 1) === 0;
  const frameBytes = 24 + view.getUint32(8);
  const sum = (from: number, to: number, [a, b]: [number, number]): [number, number] => {
    for (let i = from; i < to; i += 8) {
      a = (a + view.getUint32(i, littleEndian) + b) >>> 0;
      b = (b + view.getUint32(i + 4, littleEndian) + a) >>> 0;
    }
    return [a, b];
  };
  view.setUint32(32 + (commitFrame - 1) * frameBytes + 4, pages >>> 0);
  let sums: [number, number] = [view.getUint32(24), view.getUint32(28)];
  for (let at = 32; at + frameBytes <= copy.length; at += frameBytes) {
    sums = sum(at + 24, at + frameBytes, sum(at, at + 8, sums));
    view.setUint32(at + 16, sums[0]);
    view.setUint32(at + 20, sums[1]);
  }
  return copy;
}
