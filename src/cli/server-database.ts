// `--db postgres://…` (issue 36): a CLI command on a PostgreSQL database instead of a file. The
// engine runs in this process (the server does the work, and stops a statement at its time limit
// itself); Ctrl-C sends the server a cancel request and closes the connections. The password never
// reaches a message: the database is named user@host:port/database everywhere. Its indexes are
// kept in the cache folder (DOWSER_CACHE) as a file's are, and closing waits for the write.

import { xxhashContentHasher } from '../adapters/content-hash/xxhash';
import { cacheFolder, fileToolboxStore, keepFromCellsSetting } from '../adapters/kept-indexes/file-store';
import { PostgresEngine } from '../adapters/postgres/engine';
import { urlHasPassword } from '../adapters/postgres/target';
import { visible } from '../core/format/visible';
import { parseCellBudget } from '../core/retrieval/distinct-values';
import { UsageError } from './command';
import { onInterrupt } from './interrupt';
import { finishKeeping } from './keep-before-exit';
import type { OpenedDatabase } from './opened-database';

export { isServerUrl } from '../adapters/postgres/target';

/** Flags of every command whose --db may be a server. */
export const SERVER_FLAGS = { 'password-env': { type: 'string' }, schema: { type: 'string' } } as const;

export const SERVER_USAGE = `  --password-env <NAME>  with --db postgres://…: the variable that holds the password
                   (else PGPASSWORD, then ~/.pgpass; a password in the URL is seen by
                   other users of this machine in its process list)
  --schema <a,b>   with --db postgres://…: the schemas to read, in order (default: the
                   role's search path)`;

export interface ServerChoice {
  passwordEnv?: string;
  schemas?: string[];
}

export function parseServerFlags(v: { 'password-env'?: string | boolean; schema?: string | boolean }): ServerChoice {
  const passwordEnv = typeof v['password-env'] === 'string' ? v['password-env'] : undefined;
  if (passwordEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(passwordEnv))
    throw new UsageError(`--password-env needs the name of an environment variable, not "${visible(passwordEnv)}"`);
  const schemas =
    typeof v.schema === 'string'
      ? v.schema
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  if (schemas && !schemas.length) throw new UsageError('--schema needs at least one schema name');
  return { passwordEnv, schemas };
}

let shared: PostgresEngine | null = null;

function serverEngine(timeoutMs: number): PostgresEngine {
  if (!shared) {
    const folder = cacheFolder(process.env);
    const engine = new PostgresEngine(
      folder
        ? {
            toolboxStore: fileToolboxStore(folder),
            contentHasher: xxhashContentHasher(),
            keepFromCells: keepFromCellsSetting(process.env),
          }
        : {},
    );
    shared = engine;
    onInterrupt(() => {
      void engine.cancel().finally(() => engine.closeAll());
      if (shared === engine) shared = null;
    });
  }
  shared.queryTimeoutMs = timeoutMs;
  // DOWSER_INDEX_CELLS applies on a server as on a file.
  const { budget, problem } = parseCellBudget(process.env.DOWSER_INDEX_CELLS);
  if (problem) throw new UsageError(visible(problem));
  shared.valueCellBudget = budget;
  return shared;
}

let connected = 0;

export async function openServerDatabase(
  url: string,
  timeoutMs: number,
  choice: ServerChoice,
  say?: (line: string) => void,
  /** Where closing says what became of the index kept for the next run. */
  keepNotes?: { write(text: string): unknown },
): Promise<OpenedDatabase> {
  const engine = serverEngine(timeoutMs);
  const id = `server${++connected}`;
  if (urlHasPassword(url))
    say?.(
      'note: the password in this URL can be read by other users of this machine in its process list; PGPASSWORD, ~/.pgpass or --password-env keep it out',
    );
  const report = await engine.connect({
    id,
    target: { url, passwordEnv: choice.passwordEnv, schemas: choice.schemas, env: process.env },
  });
  for (const issue of report.issues)
    say?.(`${issue.level === 'info' ? 'note' : issue.level}: ${visible(issue.message)}`);
  // Closing waits for the index this run is keeping for the next one, as on a file.
  const close = async () => {
    await finishKeeping(engine, id, keepNotes, 'server');
    await engine.close(id).catch(() => undefined);
  };
  return { engine, id, report, close };
}
