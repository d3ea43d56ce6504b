// Fixtures for the red team's sidecar case (issue 35, item 13): an 8 KB database with a -wal or
// -journal beside it that is well-formed (magic, salts and checksums right) but claims a database
// far larger than the files could hold. Built byte by byte, so the claim is the only thing wrong:
// the same sidecar with an honest claim is read as SQLite reads it.

import initSqlJs from 'sql.js';

export const PAGE_SIZE = 4096;
const WAL_MAGIC_LITTLE_ENDIAN = 0x377f0682;
const WAL_VERSION = 3007000;
const JOURNAL_MAGIC = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
const SECTOR = 512;

/** `t (id, v)` with the texts given, on 4 KiB pages: page 1 the schema, page 2 the table. */
async function twoPageDb(texts: readonly string[]): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`PRAGMA page_size = ${PAGE_SIZE}; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);`);
  texts.forEach((v, i) => db.run('INSERT INTO t VALUES (?, ?)', [i + 1, v]));
  const bytes = db.export();
  db.close();
  if (bytes.length !== 2 * PAGE_SIZE) throw new Error(`expected an 8 KiB database, got ${bytes.length} bytes`);
  return bytes;
}

export const OLD_ROWS = ['before one', 'before two'] as const;
export const NEW_ROWS = ['after one!', 'after two!'] as const;

export interface Sidecared {
  /** The database file (8 KiB). */
  db: Uint8Array;
  /** Page 2 of the same database holding the other rows: what the sidecar carries. */
  otherPage: Uint8Array;
}

/** A WAL-mode database holding OLD_ROWS; the page a log would commit holds NEW_ROWS. */
export async function walModeDb(): Promise<Sidecared> {
  const db = await twoPageDb(OLD_ROWS);
  db[18] = 2; // WAL mode, as `PRAGMA journal_mode = WAL` leaves the header
  db[19] = 2;
  const other = await twoPageDb(NEW_ROWS);
  return { db, otherPage: other.slice(PAGE_SIZE, 2 * PAGE_SIZE) };
}

/**
 * A database caught mid-transaction: the file holds NEW_ROWS half-written; the journal holds the
 * page of OLD_ROWS as it was before.
 */
export async function halfWrittenDb(): Promise<Sidecared> {
  const db = await twoPageDb(NEW_ROWS);
  const before = await twoPageDb(OLD_ROWS);
  return { db, otherPage: before.slice(PAGE_SIZE, 2 * PAGE_SIZE) };
}

/** wal.c's checksum: two running sums over 32-bit words, little-endian here (the magic's low bit). */
function walChecksum(data: Uint8Array, sums: [number, number]): [number, number] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let [a, b] = sums;
  for (let i = 0; i < data.length; i += 8) {
    a = (a + view.getUint32(i, true) + b) >>> 0;
    b = (b + view.getUint32(i + 4, true) + a) >>> 0;
  }
  return [a, b];
}

/**
 * A log of one commit frame writing `page` as page `pageNumber`, whose commit says the database
 * is `claimedPages` pages long. Salts and checksums are right: SQLite takes the frame as valid.
 */
export function oneFrameWal(page: Uint8Array, pageNumber: number, claimedPages: number): Uint8Array {
  const wal = new Uint8Array(32 + 24 + PAGE_SIZE);
  const view = new DataView(wal.buffer);
  view.setUint32(0, WAL_MAGIC_LITTLE_ENDIAN);
  view.setUint32(4, WAL_VERSION);
  view.setUint32(8, PAGE_SIZE);
  view.setUint32(12, 0); // checkpoint sequence
  view.setUint32(16, 0x1234_5678); // salts
  view.setUint32(20, 0x0bad_cafe);
  let sums = walChecksum(wal.subarray(0, 24), [0, 0]);
  view.setUint32(24, sums[0]);
  view.setUint32(28, sums[1]);
  view.setUint32(32, pageNumber);
  view.setUint32(36, claimedPages >>> 0);
  view.setUint32(40, 0x1234_5678);
  view.setUint32(44, 0x0bad_cafe);
  wal.set(page, 56);
  sums = walChecksum(wal.subarray(32, 40), sums);
  sums = walChecksum(wal.subarray(56), sums);
  view.setUint32(48, sums[0]);
  view.setUint32(52, sums[1]);
  return wal;
}

/**
 * A hot rollback journal of one record, the original of `page` as page `pageNumber`, whose header
 * says the database was `claimedPages` pages before the transaction. Its record's checksum is right.
 */
export function oneRecordJournal(page: Uint8Array, pageNumber: number, claimedPages: number): Uint8Array {
  const nonce = 0x5eed;
  const journal = new Uint8Array(SECTOR + 4 + PAGE_SIZE + 4);
  const view = new DataView(journal.buffer);
  journal.set(JOURNAL_MAGIC, 0);
  view.setUint32(8, 1); // records
  view.setUint32(12, nonce);
  view.setUint32(16, claimedPages >>> 0);
  view.setUint32(20, SECTOR);
  view.setUint32(24, PAGE_SIZE);
  view.setUint32(SECTOR, pageNumber);
  journal.set(page, SECTOR + 4);
  // pager_cksum: the nonce plus every 200th byte of the page, from the end.
  let sum = nonce;
  for (let i = PAGE_SIZE - 200; i > 0; i -= 200) sum = (sum + page[i]) >>> 0;
  view.setUint32(SECTOR + 4 + PAGE_SIZE, sum);
  return journal;
}
