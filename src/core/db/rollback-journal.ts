// A rollback journal read as SQLite reads a hot one when it opens the database (pager.c,
// pager_playback; format: sqlite.org/fileformat2.html#rollbackjournal). A transaction writes the
// original of every page it changes into `<db>-journal` before it changes the page in the
// database; a crash or a copy taken mid-transaction leaves half-written pages in the database and
// their originals in the journal. SQLite puts them back before it reads anything; so does Dowser,
// on its own copy (page-overlay.ts), never by writing either file.
//
// sql.js gives no access to its file system, so SQLite cannot be handed the journal itself; the
// playback below follows pager.c step by step, and the tests check it against SQLite's own.

import { claimFits, type PageOverlay } from './page-overlay';
import type { RandomAccessFile } from './random-access';

const MAGIC = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
const HEADER_BYTES = 28;
const MAX_SIZE = 65536;
/** nRec of a journal written without syncs: the records run to the end of the file. */
const RECORDS_TO_END = 0xffffffff;
/** SQLite's lock byte, 2^30: the page holding it is never written, so never journaled. */
const PENDING_BYTE = 0x40000000;
/** The longest path SQLite's Unix file system names (a longer "name" is no super-journal). */
const MAX_PATH_BYTES = 512;

export type JournalReading =
  /** Empty, zeroed or unreadable from the start: no transaction to undo (SQLite deletes such a journal). */
  | { kind: 'cold' }
  /** The transaction's originals, to be laid over the database. */
  | { kind: 'hot'; overlay: PageOverlay }
  /**
   * One part of a transaction over several databases: whether it committed is kept in the
   * super-journal named here, which only SQLite beside those files can look for.
   */
  | { kind: 'multi_database'; superJournal: string }
  /**
   * A header saying the database was longer before the transaction than the file and the
   * journal could make it: SQLite would grow the file to that length; here nothing is applied.
   */
  | { kind: 'oversized'; pageCount: number; pageSize: number };

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;
const isMagic = (header: Uint8Array) => MAGIC.every((b, i) => header[i] === b);

/**
 * SQLite reads the first header only from a journal at least one sector long, by its own sector
 * size: 512 bytes where writes are power-safe (the default on Unix and Windows).
 */
const READER_SECTOR_BYTES = 512;

type Bytes = (offset: number, length: number) => Uint8Array | null;

interface Segment {
  pageSize: number;
  /** The database's length in pages before the transaction. */
  dbPages: number;
  journalSize: number;
}

/**
 * Reads `journal` as SQLite would before reading a database whose pages are `dbPageSize` bytes,
 * a file of `dbBytes` bytes.
 */
export function readRollbackJournal(journal: RandomAccessFile, dbPageSize: number, dbBytes: number): JournalReading {
  const bytes: Bytes = (offset, length) => {
    if (offset < 0 || offset + length > journal.size) return null;
    const out = new Uint8Array(length);
    return journal.read(offset, out) === length ? out : null;
  };
  const first = bytes(0, 1);
  if (!first || first[0] === 0 || journal.size < READER_SECTOR_BYTES) return { kind: 'cold' };
  const head = bytes(0, HEADER_BYTES);
  if (!head || !isMagic(head)) return { kind: 'cold' };
  const view = new DataView(head.buffer);
  const sectorSize = view.getUint32(20);
  const pageSize = view.getUint32(24) || dbPageSize;
  // A header with sizes out of range was never synced: nothing after it is to be trusted.
  if (!isPowerOfTwo(pageSize) || pageSize < 512 || pageSize > MAX_SIZE) return { kind: 'cold' };
  if (!isPowerOfTwo(sectorSize) || sectorSize < 32 || sectorSize > MAX_SIZE) return { kind: 'cold' };
  const superJournal = superJournalName(journal.size, bytes);
  if (superJournal) return { kind: 'multi_database', superJournal };

  const segment: Segment = { pageSize, dbPages: view.getUint32(16), journalSize: journal.size };
  // Every page past the file's end that the rollback puts back is in the journal, so a longer
  // database than both hold is a damaged header (SQLite has no such check: it grows the file).
  if (!claimFits(segment.dbPages, pageSize, dbBytes, journal.size))
    return { kind: 'oversized', pageCount: segment.dbPages, pageSize };
  const pages = new Map<number, number>();
  // Each header (on a sector boundary, taking a whole sector) is followed by its records.
  for (let offset = 0, header: Uint8Array | null = head; header && isMagic(header); ) {
    const end = playSegment(bytes, header, offset + sectorSize, segment, pages);
    if (end === null) break;
    offset = Math.ceil(end / sectorSize) * sectorSize;
    header = offset + sectorSize <= journal.size ? bytes(offset, HEADER_BYTES) : null;
  }
  return { kind: 'hot', overlay: { pageSize, pageCount: segment.dbPages, pages } };
}

/**
 * pager_playback_one_page for each record after `header`, from `offset`: the original pages into
 * `pages`. Returns where the records end, or null where SQLite stops reading the journal.
 */
function playSegment(bytes: Bytes, header: Uint8Array, offset: number, s: Segment, pages: Map<number, number>) {
  const view = new DataView(header.buffer);
  const recordBytes = s.pageSize + 8;
  let records = view.getUint32(8);
  if (records === RECORDS_TO_END) records = Math.floor((s.journalSize - offset) / recordBytes);
  const nonce = view.getUint32(12);
  const lockPage = Math.floor(PENDING_BYTE / s.pageSize) + 1;
  for (let r = 0; r < records; r++, offset += recordBytes) {
    const record = bytes(offset, recordBytes);
    if (!record) return null; // cut short: the rest was never synced
    const recordView = new DataView(record.buffer);
    const page = recordView.getUint32(0);
    if (page === 0 || page === lockPage) return null;
    if (page > s.dbPages) continue; // a page the transaction added: the cut to dbPages removes it
    if (pageChecksum(record.subarray(4, 4 + s.pageSize), nonce) !== recordView.getUint32(4 + s.pageSize)) return null;
    pages.set(page, offset + 4);
  }
  return offset;
}

/** pager_cksum: the nonce plus every 200th byte of the page, from the end. */
function pageChecksum(page: Uint8Array, nonce: number): number {
  let sum = nonce;
  for (let i = page.length - 200; i > 0; i -= 200) sum = (sum + page[i]) >>> 0;
  return sum;
}

/** readSuperJournal: a name at the journal's end, its length, checksum and the magic. */
function superJournalName(size: number, bytes: (offset: number, length: number) => Uint8Array | null): string | null {
  const tail = bytes(size - 16, 16);
  if (!tail || MAGIC.some((b, i) => tail[8 + i] !== b)) return null;
  const view = new DataView(tail.buffer);
  const length = view.getUint32(0);
  const sum = view.getUint32(4);
  if (length === 0 || length > MAX_PATH_BYTES || length > size - 16) return null;
  const name = bytes(size - 16 - length, length);
  if (!name || name.reduce((s, b) => (s + b) >>> 0, 0) !== sum) return null;
  const end = name.indexOf(0);
  const text = new TextDecoder().decode(end < 0 ? name : name.subarray(0, end));
  return text || null;
}
