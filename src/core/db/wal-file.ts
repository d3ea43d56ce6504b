// A write-ahead log read as SQLite recovers one when it opens the database (wal.c,
// walIndexRecover; format: sqlite.org/fileformat2.html#walformat). In WAL mode a commit appends
// the changed pages to `<db>-wal`; they reach the database only at a checkpoint, so a database
// copied without its -wal misses every change since the last one. The frames are valid while
// their salts match the header's and their running checksum holds; the pages of the last valid
// commit, and the length it gives the database, are laid over it (page-overlay.ts), unless that
// length is more than the database file and the log could give (claimFits): SQLite reads such a
// log but will not checkpoint it, calling it corrupt; here it is not read.

import { claimFits, type PageOverlay } from './page-overlay';
import type { RandomAccessFile } from './random-access';

const MAGIC = 0x377f0682;
const VERSION = 3007000;
const HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

export type WalReading =
  /** Committed pages to lay over the database. */
  | { kind: 'pages'; overlay: PageOverlay; frames: number }
  /** Nothing committed in it (empty, reset, or cut before its first commit): SQLite reads the database alone. */
  | { kind: 'empty' }
  /** A log SQLite would not open. */
  | { kind: 'unreadable'; why: string }
  /** A last commit that makes the database longer than the file and the log's pages can (SQLite will not checkpoint it). */
  | { kind: 'oversized'; pageCount: number; pageSize: number; frames: number };

/** Reads `wal` as SQLite would before reading its database, a file of `dbBytes` bytes. */
export function readWal(wal: RandomAccessFile, dbBytes: number): WalReading {
  const header = new Uint8Array(HEADER_BYTES);
  if (wal.read(0, header) < HEADER_BYTES) return { kind: 'empty' };
  const view = new DataView(header.buffer);
  const magic = view.getUint32(0);
  const pageSize = view.getUint32(8);
  if ((magic & 0xfffffffe) >>> 0 !== MAGIC || pageSize < 512 || pageSize > 65536 || pageSize & (pageSize - 1))
    return { kind: 'empty' };
  // The low bit of the magic says in which byte order the checksums read the data.
  const littleEndian = (magic & 1) === 0;
  let sums = checksum(header.subarray(0, 24), [0, 0], littleEndian);
  if (sums[0] !== view.getUint32(24) || sums[1] !== view.getUint32(28)) return { kind: 'empty' };
  if (view.getUint32(4) !== VERSION)
    return { kind: 'unreadable', why: `it is of WAL format ${view.getUint32(4)}, not ${VERSION}` };

  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  const frame = new Uint8Array(frameBytes);
  const frameView = new DataView(frame.buffer);
  const framePages: number[] = [];
  let frames = 0;
  let pageCount = 0;
  for (let offset = HEADER_BYTES; offset + frameBytes <= wal.size; offset += frameBytes) {
    if (wal.read(offset, frame) < frameBytes) break;
    const page = frameView.getUint32(0);
    const pagesAfterCommit = frameView.getUint32(4);
    if (page === 0 || frameView.getUint32(8) !== view.getUint32(16) || frameView.getUint32(12) !== view.getUint32(20))
      break;
    sums = checksum(frame.subarray(0, 8), sums, littleEndian);
    sums = checksum(frame.subarray(FRAME_HEADER_BYTES), sums, littleEndian);
    if (sums[0] !== frameView.getUint32(16) || sums[1] !== frameView.getUint32(20)) break;
    framePages.push(page);
    if (pagesAfterCommit) {
      frames = framePages.length;
      pageCount = pagesAfterCommit;
    }
  }
  if (!frames) return { kind: 'empty' };
  if (!claimFits(pageCount, pageSize, dbBytes, frames * pageSize))
    return { kind: 'oversized', pageCount, pageSize, frames };
  // Frames after the last commit belong to a transaction that never committed.
  const pages = new Map<number, number>();
  for (let i = 0; i < frames; i++) pages.set(framePages[i], HEADER_BYTES + i * frameBytes + FRAME_HEADER_BYTES);
  return { kind: 'pages', overlay: { pageSize, pageCount, pages }, frames };
}

/** walChecksumBytes: two running sums over 32-bit words, in the log's byte order. */
function checksum(data: Uint8Array, [a, b]: [number, number], littleEndian: boolean): [number, number] {
  const words = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < data.length; i += 8) {
    a = (a + words.getUint32(i, littleEndian) + b) >>> 0;
    b = (b + words.getUint32(i + 4, littleEndian) + a) >>> 0;
  }
  return [a, b];
}
