// Opening a database: read (with progress) -> worker opens and validates -> integrity check in
// the background -> schema loads through react-query. Failures become a notice; nothing else
// on the page changes, so the user can go on with the databases already open.

import { describeError, toDowserError } from '../../core/errors';
import { quoteIdentIfNeeded } from '../../core/sql/quote';
import { queryKeys, schemaQuery } from '../queries';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { checkFileSize, MAX_FILE_BYTES } from '../../core/db/file-check';
import { TABLE_FILE, type ImportType } from '../../core/import/table-file';
import type { EncodingChoice, HeaderChoice } from '../../core/import/imported-file';
import { previewImport } from './import-tables';
import { glossaryOf } from './glossary';
import { runQuery } from './run-query';
import { forgetTools } from './tools';
import type { HandoffFile } from '../lib/reload-handoff';
import { forgetServedDb } from '../lib/served-sessions';
import type { OpenReport, Schema } from '../../core/types';
import { dialectOf } from '../../core/dialect/registry';

/** What each open database was opened from (a File is a handle, not a copy): a reload keeps them. */
const sources = new Map<string, HandoffFile>();

/** The open databases' names and sources, in the order they show. */
export function openSources(): HandoffFile[] {
  return useApp
    .getState()
    .databases.filter((d) => d.status === 'ready' && sources.has(d.id))
    .map((d) => sources.get(d.id)!);
}

let counter = 0;
export const newId = () => `db${++counter}-${Date.now().toString(36)}`;

/** Starting SQL for a fresh editor: something that runs and shows data at once. */
function starterSql(schema: Schema): string {
  const first = schema.tables.find((t) => !t.error)?.name;
  if (schema.dialect === 'postgres') {
    // An unquoted name folds to lower case on PostgreSQL: quote any other.
    const name = first && (/^[a-z_][a-z0-9_]*$/.test(first) ? first : dialectOf('postgres').quoteIdent(first));
    return name ? `SELECT *\nFROM ${name}\nLIMIT 100;` : 'SELECT version();';
  }
  return first ? `SELECT *\nFROM ${quoteIdentIfNeeded(first)}\nLIMIT 100;` : 'SELECT sqlite_version();';
}

/**
 * A database the engine has opened, shown: ready, active, its notices, its schema and the
 * starter query; then `check` (a file's quick_check), when asked for.
 */
export function showOpened(id: string, name: string, report: OpenReport, readyMs: number, check: boolean): void {
  useApp.getState().patchDb(id, { status: 'ready', report, readyMs, progress: 1 });
  useApp.getState().setActive(id);
  // Notes and descriptions kept for this name show in the explorer and feed the tools.
  void glossaryOf(name);
  for (const issue of report.issues) useApp.getState().notify(issue.level, `${name}: ${issue.message}`, id);
  const schemaShown = getServices()
    .queryClient.fetchQuery(schemaQuery(getServices(), id))
    .then(
      (schema) => {
        if (useApp.getState().sqlByDb[id]) return;
        // A fresh database shows rows at once: the starter query runs when nothing else does.
        const sql = starterSql(schema);
        useApp.getState().setSql(id, sql);
        if (useApp.getState().activeId === id && useApp.getState().run.status !== 'running') void runQuery(sql);
      },
      () => undefined,
    );
  if (!check) return;
  // quick_check reads every page: it runs after the schema and the first rows, not before.
  void schemaShown.finally(() =>
    getServices()
      .engine.check(id)
      .then(
        (checked) => {
          useApp.getState().patchDb(id, { report: checked });
          for (const issue of checked.issues.slice(report.issues.length))
            useApp.getState().notify(issue.level, `${name}: ${issue.message}`, id);
        },
        (e) =>
          useApp.getState().notify('warning', `${name}: the integrity check did not finish (${describeError(e)}).`, id),
      ),
  );
}

async function openSource(
  name: string,
  source: Blob | Uint8Array,
  options: { remember: boolean } & Pick<HandoffFile, 'tables' | 'journal' | 'wal'>,
): Promise<string | null> {
  const app = useApp.getState();
  const id = newId();
  const t0 = performance.now();
  const sizeOf = (b: Blob | Uint8Array) => (b instanceof Uint8Array ? b.length : b.size);
  const sizeBytes = options.tables ? options.tables.reduce((n, t) => n + sizeOf(t.source), 0) : sizeOf(source);
  app.upsertDb({ id, name, sizeBytes, status: 'opening', progress: 0 });
  try {
    // A SQLite file above what memory holds is read where it lies (issue 26); imports are in memory.
    checkFileSize(sizeBytes, options.tables ? MAX_FILE_BYTES : Infinity);
    // The File goes to the worker as a handle and is read there: no copy on the main thread;
    // CSV, TSV and JSON files are parsed and imported there too (issue 26).
    let opened = false; // a late progress message must not undo "ready"
    const tables = options.tables?.map((t) => ({
      name: t.name,
      bytes: t.source,
      ...(t.types ? { types: t.types } : {}),
      ...(t.header ? { header: t.header } : {}),
      ...(t.encoding ? { encoding: t.encoding } : {}),
    }));
    const read = useApp.getState().settings.readDatabases;
    // Sidecars picked with the file are read as SQLite would (core/db/sidecars.ts); never written.
    const { journal, wal } = options;
    const request = {
      id,
      name,
      bytes: source,
      read,
      ...(tables ? { tables } : {}),
      ...(journal ? { journal } : {}),
      ...(wal ? { wal } : {}),
    };
    const report = await getServices().engine.open(request, (p) => {
      if (!opened) useApp.getState().patchDb(id, { progress: p });
    });
    opened = true;
    sources.set(id, {
      name,
      source,
      ...(options.tables ? { tables: options.tables } : {}),
      ...(journal ? { journal } : {}),
      ...(wal ? { wal } : {}),
    });
    showOpened(id, name, report, Math.round(performance.now() - t0), true);
    if (options.remember) {
      const problem = await getServices().recentFiles.remember(name, source, useApp.getState().settings.rememberFiles);
      if (problem) useApp.getState().notify('warning', problem, id);
      void getServices().queryClient.invalidateQueries({ queryKey: queryKeys.recent() });
    }
    return id;
  } catch (e) {
    const err = toDowserError(e, 'open_failed');
    useApp.getState().removeDb(id);
    useApp.getState().notify('error', `Could not open "${name}": ${err.message}`, null);
    return null;
  }
}

/** Files open or opening, by name, size and modification time, with their database's id. */
const openedFiles = new Map<string, Promise<string | null>>();
const fileKey = (f: File) => `${f.name}\u0000${f.size}\u0000${f.lastModified}`;

/**
 * A file already open (or still opening) is shown again, not opened a second time: a second tab of
 * the same file would hold a second copy, build a second index and split the conversation.
 */
export function openFile(file: File, sidecars: { journal?: File; wal?: File } = {}): Promise<string | null> {
  const key = fileKey(file);
  const earlier = openedFiles.get(key);
  if (earlier)
    return earlier.then((id) => {
      if (!id || !useApp.getState().databases.some((d) => d.id === id)) {
        if (openedFiles.get(key) === earlier) openedFiles.delete(key);
        return openFile(file, sidecars);
      }
      useApp.getState().setActive(id);
      useApp.getState().notify('info', `"${file.name}" is already open: it is shown.`, id);
      return id;
    });
  const job = openSource(file.name, file, { remember: true, ...sidecars });
  openedFiles.set(key, job);
  void job.then((id) => {
    if (!id && openedFiles.get(key) === job) openedFiles.delete(key);
  });
  return job;
}

/** `<database>-journal`, `-wal` or `-shm`: files SQLite keeps beside a database. */
const SIDECAR = /^(.+)-(wal|shm|journal)$/i;

export async function openFiles(files: Iterable<File>): Promise<void> {
  const list = [...files];
  const sidecars = list.filter((f) => SIDECAR.test(f.name));
  // The page sees only the files picked or dropped: a sidecar is read with its database when
  // both come together (-shm, the log's index, is never needed).
  const sidecarOf = (db: File, kind: 'journal' | 'wal') =>
    sidecars.find((s) => s.name.toLowerCase() === `${db.name}-${kind}`.toLowerCase());
  const databases = list.filter((f) => !sidecars.includes(f) && !TABLE_FILE.test(f.name));
  for (const s of sidecars) {
    const [, dbName, kind] = SIDECAR.exec(s.name)!;
    if (databases.some((d) => d.name.toLowerCase() === dbName.toLowerCase())) continue;
    useApp
      .getState()
      .notify(
        'info',
        kind.toLowerCase() === 'shm'
          ? `"${s.name}" is a SQLite sidecar file that is not needed: open the database with its -wal file.`
          : `"${s.name}" is a SQLite sidecar file: it is read with its database. Pick or drop "${dbName}" and "${s.name}" together.`,
        null,
      );
  }
  // CSV, TSV and JSON files dropped together become one database, a table each (issue 26),
  // once the person has seen the columns and their types (ImportDialog).
  const tableFiles = list.filter((f) => TABLE_FILE.test(f.name));
  for (const f of databases) {
    const journal = sidecarOf(f, 'journal');
    const wal = sidecarOf(f, 'wal');
    await openFile(f, { ...(journal ? { journal } : {}), ...(wal ? { wal } : {}) });
  }
  if (tableFiles.length) await previewImport(tableFiles);
}

/** How the person chose to import one table file: column types (null: inferred), its first row, its encoding. */
export interface TableImportChoice {
  types?: Array<ImportType | null>;
  header?: HeaderChoice;
  encoding?: EncodingChoice;
}

/** Table files as one database, a table each, as the person chose in the import dialog. */
export async function importTables(files: File[], choices: TableImportChoice[]): Promise<void> {
  const name = files.length === 1 ? files[0].name : `${files[0].name} + ${files.length - 1} more`;
  await openSource(name, files[0], {
    remember: false,
    tables: files.map((f, i) => {
      const { types, header, encoding } = choices[i] ?? {};
      return {
        name: f.name,
        source: f,
        ...(types ? { types } : {}),
        ...(header ? { header } : {}),
        ...(encoding && encoding !== 'auto' ? { encoding } : {}),
      };
    }),
  });
}

/**
 * Opens a remembered file from this device's store. Without stored bytes (the person did not
 * let the page keep files) `pickAgain` opens the file picker, so the entry is never a dead end.
 */
export async function openRecent(name: string, pickAgain?: () => void): Promise<void> {
  const bytes = await getServices().recentFiles.load(name);
  if (!bytes) {
    useApp
      .getState()
      .notify('info', `"${name}" is not stored on this device: pick it in the file dialog to open it again.`, null);
    pickAgain?.();
    return;
  }
  await openSource(name, bytes, { remember: false });
}

/**
 * Opens the files a reload the page asked for kept (actions/reload.ts); false when there were
 * none, and the page starts as on a first visit.
 */
export async function resumeAfterReload(): Promise<boolean> {
  const kept = await getServices()
    .reloadHandoff.take()
    .catch(() => null);
  if (!kept?.files.length) return false;
  for (const f of kept.files)
    await openSource(f.name, f.source, { remember: false, tables: f.tables, journal: f.journal, wal: f.wal });
  const active = useApp.getState().databases.find((d) => d.name === kept.active);
  if (active) useApp.getState().setActive(active.id);
  return true;
}

/** "Remember opened files" ticked: the files open now are kept too, not only those opened later. */
export async function rememberOpenFiles(): Promise<void> {
  for (const f of openSources()) {
    // The demo comes with the page; an import is made from its files, which Recent cannot reopen.
    if (f.name === 'demo.sqlite' || f.tables) continue;
    const problem = await getServices().recentFiles.remember(f.name, f.source, true);
    if (problem) useApp.getState().notify('warning', problem, null);
  }
  void getServices().queryClient.invalidateQueries({ queryKey: queryKeys.recent() });
}

export async function openDemo(): Promise<void> {
  useApp.getState().setFetching('demo.sqlite');
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}demo.sqlite`);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const blob = await res.blob();
    useApp.getState().setFetching(null);
    await openSource('demo.sqlite', blob, { remember: false });
  } catch (e) {
    useApp.getState().setFetching(null);
    useApp
      .getState()
      .notify(
        'error',
        `The demo database could not be loaded (${describeError(e)}). Open a file of your own instead.`,
        null,
      );
  }
}

export async function closeDatabase(id: string): Promise<void> {
  useApp.getState().removeDb(id);
  sources.delete(id);
  forgetServedDb(id);
  forgetTools(id);
  getServices().asks.drop(id);
  getServices().queryClient.removeQueries({ queryKey: queryKeys.schema(id) });
  getServices().queryClient.removeQueries({ queryKey: queryKeys.statsOf(id) });
  await getServices()
    .engine.close(id)
    .catch(() => undefined);
}
