// What SQLite reads beside a database before the database itself: a hot rollback journal
// (`<db>-journal`, an unfinished transaction to undo) and a write-ahead log (`<db>-wal`, commits
// not yet checkpointed). SQLite writes both into the database file when it opens it; Dowser lays
// them over its private copy or over the file read in place (page-overlay.ts), so the database
// reads as SQLite would show it and no file is written. What was found is said in open issues.

import { formatBytes } from '../format/schema-text';
import type { OpenIssue } from '../types';
import type { PageOverlay } from './page-overlay';
import type { RandomAccessFile } from './random-access';
import { readRollbackJournal } from './rollback-journal';
import { readWal } from './wal-file';

/** The codes of the open issues below (the CLI prints them with any command's output). */
export const SIDECAR_ISSUES: ReadonlySet<string> = new Set([
  'hot_journal_rolled_back',
  'journal_not_applied',
  'wal_read',
  'wal_not_applied',
]);

export interface SidecarFiles {
  journal?: RandomAccessFile;
  wal?: RandomAccessFile;
}

export interface Recovery {
  /** Overlays in the order SQLite applies them: the journal's rollback, then the log's commits. */
  layers: Array<{ source: RandomAccessFile; overlay: PageOverlay }>;
  issues: OpenIssue[];
}

/** Reads the sidecar files of a database whose pages are `pageSize` bytes, a file of `dbBytes` bytes. */
export function recoverFromSidecars(pageSize: number, dbBytes: number, files: SidecarFiles): Recovery {
  const layers: Recovery['layers'] = [];
  const issues: OpenIssue[] = [];
  // The log lies over the database as the journal left it.
  let bytesUnderLog = dbBytes;
  if (files.journal) {
    const journal = readRollbackJournal(files.journal, pageSize, dbBytes);
    if (journal.kind === 'hot') {
      layers.push({ source: files.journal, overlay: journal.overlay });
      bytesUnderLog = journal.overlay.pageCount * journal.overlay.pageSize;
      issues.push({
        level: 'warning',
        code: 'hot_journal_rolled_back',
        message: `This database was left in the middle of a transaction: its -journal file holds the pages as they were before it. Dowser undid the transaction on its own copy, as SQLite does when it opens such a file (${plural(journal.overlay.pages.size, 'page')} put back). The files themselves were not changed; a program that reads the database without its journal sees half-written rows.`,
      });
    } else if (journal.kind === 'multi_database') {
      issues.push({
        level: 'warning',
        code: 'journal_not_applied',
        message: `The -journal file belongs to a transaction over several databases; whether it was committed is recorded in "${journal.superJournal}", which is not read here. The journal was not applied, so rows that transaction changed may be half-written. Open the database once with SQLite beside all its files to settle it.`,
      });
    } else if (journal.kind === 'oversized') {
      issues.push({
        level: 'warning',
        code: 'journal_not_applied',
        message: `The -journal file says the database was ${claimed(journal)} before its transaction, more than the database file (${formatBytes(dbBytes)}) and the journal (${formatBytes(files.journal.size)}) could hold: it is damaged or belongs to another database, and was not applied. The database was read as its file holds it; if a transaction was in fact interrupted, rows it changed may be half-written.`,
      });
    }
  }
  if (files.wal) {
    const wal = readWal(files.wal, bytesUnderLog);
    if (wal.kind === 'pages' && wal.overlay.pageSize !== pageSize) {
      issues.push({
        level: 'warning',
        code: 'wal_not_applied',
        message: `The -wal file's pages are ${wal.overlay.pageSize} bytes and the database's ${pageSize}: it belongs to another database and was not read.`,
      });
    } else if (wal.kind === 'pages') {
      layers.push({ source: files.wal, overlay: wal.overlay });
      issues.push({
        level: 'info',
        code: 'wal_read',
        message: `Read the committed changes in the -wal file (${plural(wal.frames, 'page write')}), as SQLite does; the files were not changed.`,
      });
    } else if (wal.kind === 'oversized') {
      issues.push({
        level: 'warning',
        code: 'wal_not_applied',
        message: `The -wal file's last commit says the database is ${claimed(wal)}, more than the database file (${formatBytes(bytesUnderLog)}) and the log could give (${plural(wal.frames, 'page')} in it): SQLite itself calls such a log corrupt when it checkpoints it. The log was not read; the database was read as its file holds it, without the log's changes.`,
      });
    } else if (wal.kind === 'unreadable') {
      issues.push({
        level: 'warning',
        code: 'wal_not_applied',
        message: `The -wal file cannot be read (${wal.why}); the database was read without it.`,
      });
    }
  }
  return { layers, issues };
}

/** A claimed length in pages and bytes: "1,048,576 pages (4.0 GiB)". */
const claimed = ({ pageCount, pageSize }: { pageCount: number; pageSize: number }) =>
  `${plural(pageCount, 'page')} (${formatBytes(pageCount * pageSize)})`;

const plural = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
