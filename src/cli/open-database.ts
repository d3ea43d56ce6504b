// Opens a database file for a CLI command in the engine's worker thread, as the page does: the
// worker reads the file itself (the main thread holds no copy, and reads it again only after a
// restart), every call has the time limit of `--timeout`, and a query that runs too long ends
// with the worker restarted instead of a hung process. Nothing is ever written back to the file.
//
// The worker is started once per process and kept between commands (tests run many in one
// process); it does not keep the process alive while idle.

import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { READ_CHOICES, type ReadChoice } from '../core/db/file-check';
import { TABLE_FILE } from '../core/import/table-file';
import { parseCellBudget } from '../core/retrieval/distinct-values';
import { visible } from '../core/format/visible';
import type { FilePath } from '../core/engine';
import type { OpenedDatabase } from './opened-database';
import { SIDECAR_ISSUES } from '../core/db/sidecars';
import { DEFAULT_QUERY_TIMEOUT_MS, RestartableEngine } from '../worker/db-client';
import { spawnNodeDbWorker } from '../worker/node/spawn';
import { parseSeconds, UsageError, type CliIo } from './command';
import { onInterrupt } from './interrupt';
import { isServerUrl, openServerDatabase, type ServerChoice } from './server-database';
import { finishKeeping } from './keep-before-exit';
import { headerFor, importLines, terminalOf, type TableFileChoice } from './table-file-flags';

export type { CliEngine, OpenedDatabase } from './opened-database';

let shared: RestartableEngine | null = null;

/** The process's engine worker; Ctrl-C ends it (pending calls fail at once, see interrupt.ts). */
export function cliEngine(timeoutMs: number): RestartableEngine {
  if (!shared) {
    const engine = new RestartableEngine(spawnNodeDbWorker, { raiseLimitHint: 'raise it with --timeout <seconds>' });
    shared = engine;
    onInterrupt(() => {
      engine.dispose();
      if (shared === engine) shared = null;
    });
  }
  shared.queryTimeoutMs = timeoutMs;
  return shared;
}

let opened = 0;

/** How a --db table file is imported (--header, --encoding), and where that is said. */
export interface TableFileOpen extends Partial<TableFileChoice> {
  /** Its stderr hears how each file was read (also without `notes`); a terminal there is asked. */
  io?: CliIo;
  /** With a postgres:// --db: --password-env and --schema. */
  server?: ServerChoice;
}

export async function openDatabase(
  path: string,
  timeoutMs: number = DEFAULT_QUERY_TIMEOUT_MS,
  /** Where to say what an imported CSV/TSV/JSON file became, and the rows that did not fit. */
  notes?: (line: string) => void,
  tableFile: TableFileOpen = {},
): Promise<OpenedDatabase> {
  if (isServerUrl(path))
    // What connecting found is said where a file's open notes are (a command without notes shows the report).
    return openServerDatabase(
      path,
      timeoutMs,
      tableFile.server ?? {},
      notes,
      tableFile.io?.stderr ?? (notes && { write: (t: string) => notes(t.trimEnd()) }),
    );
  const engine = cliEngine(timeoutMs);
  const id = `cli${++opened}`;
  const file = { path: resolve(path) };
  const read = readChoice(process.env.DOWSER_READ);
  const { problem } = parseCellBudget(process.env.DOWSER_INDEX_CELLS);
  if (problem) throw new UsageError(visible(problem));
  // A CSV, TSV or JSON file is imported into a new in-memory database, one table (issue 26).
  const choice = { header: tableFile.header ?? 'auto', encoding: tableFile.encoding ?? 'auto' };
  const tables = TABLE_FILE.test(path)
    ? [
        {
          name: basename(path),
          bytes: file,
          header: await headerFor(file.path, choice, tableFile.io ? terminalOf(tableFile.io) : null),
          encoding: choice.encoding,
        },
      ]
    : undefined;
  const report = await engine.open({
    id,
    name: basename(path),
    bytes: file,
    read,
    ...(tables ? { tables } : sidecarsBeside(file.path)),
  });
  // How the file was read and what the import made of its rows; what the journal or log beside it changed.
  const say = notes ?? (tableFile.io ? (line: string) => tableFile.io!.stderr.write(line + '\n') : undefined);
  if (say && tables) for (const line of importLines(report)) say(line);
  if (notes && !tables)
    for (const issue of report.issues)
      if (SIDECAR_ISSUES.has(issue.code))
        notes(`${issue.level === 'warning' ? 'warning' : 'note'}: ${visible(issue.message)}`);
  // Closing waits for the index this run is keeping for the next one (issue 35, item 16).
  const close = async () => {
    await finishKeeping(engine, id, tableFile.io?.stderr ?? (notes && { write: (t: string) => notes(t.trimEnd()) }));
    await engine.close(id).catch(() => undefined);
  };
  return { engine, id, report, close };
}

/**
 * `<db>-journal` and `<db>-wal` where SQLite looks for them, read (never written) as SQLite would
 * read them before the database: an unfinished transaction undone, a log's commits read. Null:
 * looked for and absent, so a WAL-mode file without its log is not warned about (SQLite removes
 * the log when the last connection closes cleanly).
 */
function sidecarsBeside(path: string): { journal: FilePath | null; wal: FilePath | null } {
  const beside = (suffix: string) => (existsSync(path + suffix) ? { path: path + suffix } : null);
  return { journal: beside('-journal'), wal: beside('-wal') };
}

/** DOWSER_READ: how SQLite files are read (issue 26); unset is `auto`. */
export function readChoice(value: string | undefined): ReadChoice {
  if (value === undefined || value === '') return 'auto';
  const choice = READ_CHOICES.find((c) => c === value);
  if (choice) return choice;
  throw new UsageError(`DOWSER_READ must be auto, memory or file, not "${visible(value)}"`);
}

/** `--timeout <seconds>`: the time limit of one query (and of one tool call), like the page's setting. */
export const TIMEOUT_FLAG = { timeout: { type: 'string' } } as const;

export const TIMEOUT_USAGE = `  --timeout <s>    time limit of one query in seconds (default ${DEFAULT_QUERY_TIMEOUT_MS / 1000}); a query
                   that runs longer is stopped and reported`;

export function parseTimeout(value: string | undefined): number {
  return value === undefined ? DEFAULT_QUERY_TIMEOUT_MS : parseSeconds(value, '--timeout');
}
