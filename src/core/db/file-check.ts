// Checks made on the raw bytes before SQLite sees them, so the user gets a precise reason
// ("this is a CSV", "this looks encrypted", "the file is cut short") instead of
// "file is not a database".

import { DowserError } from '../errors';
import type { OpenIssue } from '../types';

const MAGIC = 'SQLite format 3\u0000';

/** One ArrayBuffer holds at most about 2 GiB in Chromium and Firefox; phones give far less. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024 - 1;

export interface HeaderFacts {
  pageSize: number;
  /** Page count from the header; 0 when the header predates this field's validity. */
  pageCount: number;
  walMode: boolean;
  textEncoding: number;
}

/**
 * Above this size an engine that can read a file where it lies does so (issue 26, decision 064):
 * copying it into memory first costs more time before the schema shows and more memory than
 * reading the pages asked for.
 */
export const READ_FROM_FILE_ABOVE_BYTES = 256 * 1024 * 1024;

/**
 * A file read in place above this size gets no integrity check after opening: `PRAGMA
 * quick_check` reads every page in one statement (6 s for 2 GB, 15 s for 10 GB in Node, longer in
 * a browser), and the worker answers nothing else meanwhile, questions included. The report says
 * so; the person can run the check in the SQL tab.
 */
export const CHECK_IN_PLACE_UP_TO_BYTES = 1024 * 1024 * 1024;

/** `OpenReport.quickCheck` of a file whose check was left out (CHECK_IN_PLACE_UP_TO_BYTES). */
export const QUICK_CHECK_SKIPPED = 'not checked';

/** Where an open report's integrity check stands: not run yet, left out, passed or failed. */
export function integrityOf(quickCheck: readonly string[]): 'pending' | 'skipped' | 'ok' | 'failed' {
  if (quickCheck.length === 0) return 'pending';
  if (quickCheck[0] === QUICK_CHECK_SKIPPED) return 'skipped';
  return quickCheck.length === 1 && quickCheck[0] === 'ok' ? 'ok' : 'failed';
}

/** Where a database is read from: a private copy in memory, or the file itself, page by page. */
export type ReadPlace = 'memory' | 'file';
/** What the caller asks for; `auto` chooses by size (READ_FROM_FILE_ABOVE_BYTES). */
export const READ_CHOICES = ['auto', 'memory', 'file'] as const;
export type ReadChoice = (typeof READ_CHOICES)[number];

/** Where to read a file of `sizeBytes` from, when the engine `canReadFile` at all. */
export function readPlace(sizeBytes: number, choice: ReadChoice, canReadFile: boolean): ReadPlace {
  if (!canReadFile || choice === 'memory') return 'memory';
  if (choice === 'file') return 'file';
  return sizeBytes > READ_FROM_FILE_ABOVE_BYTES ? 'file' : 'memory';
}

/**
 * Size check made before the file is even read (File.size), so nothing big is loaded in vain.
 * `maxBytes` is what one piece of memory holds; a file read where it lies has no such limit.
 */
export function checkFileSize(sizeBytes: number, maxBytes = MAX_FILE_BYTES): void {
  if (sizeBytes === 0)
    throw new DowserError('empty_file', 'The file is empty (0 bytes), so there is no database in it.');
  if (sizeBytes > maxBytes) {
    const gib = (sizeBytes / 1024 ** 3).toFixed(1);
    throw new DowserError(
      'too_large',
      `The file is ${gib} GiB. A browser can hold about 2 GiB in one piece (less on phones), so it cannot be copied into memory. Open it to be read from the file instead (the default for large files).`,
    );
  }
}

/** Shannon entropy in bits per byte; random or encrypted data is close to 8. */
function entropy(bytes: Uint8Array): number {
  const counts = new Array<number>(256).fill(0);
  for (const b of bytes) counts[b]++;
  let h = 0;
  for (const c of counts) {
    if (c === 0) continue;
    const p = c / bytes.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function looksLikeText(bytes: Uint8Array): boolean {
  let printable = 0;
  // Every byte of a UTF-8 sequence counts (0x80-0xBF are continuation bytes): a CSV in Chinese
  // is two thirds continuation bytes. Binary data gives itself away by control bytes instead.
  for (const b of bytes) if (b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127) || b >= 0x80) printable++;
  return printable / bytes.length > 0.95;
}

/**
 * Validates the header; throws a DowserError that says what the file seems to be instead.
 * `bytes` is the whole file, or its first pages when the file is `sizeBytes` long and read where it lies.
 */
export function readHeader(bytes: Uint8Array, sizeBytes = bytes.length): HeaderFacts {
  checkFileSize(sizeBytes, sizeBytes === bytes.length ? MAX_FILE_BYTES : Infinity);
  const head = bytes.subarray(0, Math.min(bytes.length, 100));
  const magic = String.fromCharCode(...head.subarray(0, 16));
  if (magic !== MAGIC) {
    const sample = bytes.subarray(0, Math.min(bytes.length, 4096));
    if (sample.length >= 512 && entropy(sample) > 7.5) {
      throw new DowserError(
        'encrypted',
        'This file looks encrypted (its bytes are random-looking and it has no SQLite header). Encrypted databases (SQLCipher, SEE) cannot be opened here; export an unencrypted copy first.',
      );
    }
    const what = looksLikeText(sample)
      ? 'it looks like a text file'
      : 'it does not start with the "SQLite format 3" header';
    throw new DowserError('not_sqlite', `This is not a SQLite database: ${what}.`);
  }
  if (bytes.length < 100)
    throw new DowserError(
      'corrupt',
      `The file is cut short: ${sizeBytes} bytes, less than the 100-byte SQLite header.`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  // The in-header page count is valid only when the "version-valid-for" number (offset 92)
  // equals the change counter (offset 24); writers older than SQLite 3.7.0 left it stale.
  const pageCount = view.getUint32(24) === view.getUint32(92) ? view.getUint32(28) : 0;
  return {
    pageSize,
    pageCount,
    walMode: bytes[18] === 2 || bytes[19] === 2,
    textEncoding: view.getUint32(56),
  };
}

/** Problems worth telling the user that still let the file open. */
export function headerIssues(h: HeaderFacts, sizeBytes: number, hasWalSidecar: boolean): OpenIssue[] {
  const issues: OpenIssue[] = [];
  if (h.walMode && !hasWalSidecar) {
    issues.push({
      level: 'warning',
      code: 'wal_without_sidecar',
      message:
        'This database is in WAL mode and was opened without its "-wal" file. If one lies beside it, the changes in it (not yet checkpointed) are missing here: open the database together with its -wal file (pick or drop both files at once; the CLI reads it from beside the database), or checkpoint it first.',
    });
  }
  if (h.pageCount > 0 && h.pageSize > 0) {
    const expected = h.pageCount * h.pageSize;
    if (sizeBytes < expected) {
      issues.push({
        level: 'error',
        code: 'truncated',
        message: `The file is cut short: its header describes ${h.pageCount} pages (${expected} bytes) but it has ${sizeBytes} bytes. Some data is missing; queries may fail.`,
      });
    }
  }
  return issues;
}
