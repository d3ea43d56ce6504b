// Pages that stand in for the main file's: the originals a rollback journal kept of a transaction
// that never finished (rollback-journal.ts), or the committed pages of a write-ahead log
// (wal-file.ts). SQLite would write them into the database when it opens it; here they are laid
// over a private copy in memory, or over the file read in place, and the user's files stay as
// they are.

import type { RandomAccessFile } from './random-access';

export interface PageOverlay {
  pageSize: number;
  /** The database's length in pages once the overlay is laid (shorter or longer than the file). */
  pageCount: number;
  /** Page number (from 1) → where that page's bytes start in the journal or log. */
  pages: Map<number, number>;
}

/**
 * The one page no file holds, SQLite's lock page at 1 GiB, as room in bytes: the largest page
 * size. A database past 1 GiB counts it in its length though no file ever wrote it.
 */
const LOCK_PAGE_ROOM = 65536;

/**
 * Whether a sidecar's claim that the database is `pageCount` pages long fits what the files can
 * give: the database file, the pages the sidecar holds and the lock page. SQLite's own test before
 * it checkpoints a log (wal.c, walCheckpoint): a database larger than "the current database plus
 * the amount of data in the wal file, plus the maximum size of the pending-byte page" means
 * corruption. Past it, an overlay would be laid over pages no file holds, and in memory a copy
 * sized by a number from the file would be made.
 */
export function claimFits(pageCount: number, pageSize: number, dbBytes: number, sidecarBytes: number): boolean {
  return pageCount * pageSize <= dbBytes + sidecarBytes + LOCK_PAGE_ROOM;
}

/** Bytes already in memory, read like a file. */
export function bytesFile(bytes: Uint8Array): RandomAccessFile {
  return {
    size: bytes.length,
    read(offset, into) {
      const part = bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + into.length, bytes.length));
      into.set(part);
      return part.length;
    },
    close() {},
  };
}

/**
 * `db` with the overlay's pages written in and cut (or grown, with zeros) to its length. `db` is
 * changed in place when it is long enough: only for bytes the caller owns (a private copy).
 */
export function applyOverlay(db: Uint8Array, source: RandomAccessFile, overlay: PageOverlay): Uint8Array {
  const length = overlay.pageCount * overlay.pageSize;
  let out = db.subarray(0, Math.min(length, db.length));
  if (out.length < length) {
    out = new Uint8Array(length);
    out.set(db.subarray(0, length));
  }
  for (const [page, at] of overlay.pages)
    readPage(source, at, out.subarray((page - 1) * overlay.pageSize, page * overlay.pageSize));
  return out;
}

/** `file` as it reads with the overlay laid over it: nothing is copied but the pages asked for. */
export function overlaid(file: RandomAccessFile, source: RandomAccessFile, overlay: PageOverlay): RandomAccessFile {
  const { pageSize } = overlay;
  const size = overlay.pageCount * pageSize;
  return {
    size,
    read(offset, into) {
      const end = Math.min(offset + into.length, size);
      for (let at = offset; at < end; ) {
        const page = Math.floor(at / pageSize) + 1;
        const pageEnd = Math.min(page * pageSize, end);
        const part = into.subarray(at - offset, pageEnd - offset);
        const from = overlay.pages.get(page);
        if (from !== undefined) {
          const whole = new Uint8Array(pageSize);
          readPage(source, from, whole);
          part.set(whole.subarray(at - (page - 1) * pageSize, pageEnd - (page - 1) * pageSize));
        } else {
          // Past the file's end (the transaction had shortened it): zeros, as SQLite grows a file.
          const n = at < file.size ? file.read(at, part) : 0;
          part.fill(0, n);
        }
        at = pageEnd;
      }
      return Math.max(0, end - offset);
    },
    close() {
      file.close();
      source.close();
    },
  };
}

function readPage(source: RandomAccessFile, at: number, into: Uint8Array): void {
  if (source.read(at, into) !== into.length) throw new Error('The journal or log ended inside a page it lists.');
}
