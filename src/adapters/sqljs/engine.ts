// DbEngine over sql.js. Runs wherever sql.js runs: inside the browser's Web Worker and
// in-process in Node (CLI, unit tests). Reads only: every statement passes two gates
// (keywords, then compiled bytecode) and the connection is also set to query_only.

import type { Database, SqlJsStatic } from 'sql.js';
import {
  CHECK_IN_PLACE_UP_TO_BYTES,
  checkFileSize,
  headerIssues,
  readHeader,
  readPlace,
  type ReadPlace,
} from '../../core/db/file-check';
import type { RandomAccessFile } from '../../core/db/random-access';
import { applyOverlay, bytesFile, overlaid } from '../../core/db/page-overlay';
import { recoverFromSidecars, type Recovery, type SidecarFiles } from '../../core/db/sidecars';
import type { Connection, ConnectionStatement } from './connection';
import {
  DEFAULT_MAX_CELL_CHARS,
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_ROWS,
  ResultBudget,
  WHOLE_VALUE_MAX,
} from '../../core/db/result-budget';
import { DowserError, toDowserError } from '../../core/errors';
import { executorFor, type ScanRow, type SqlExecutor } from '../../core/executor';
import { summarizeToolbox } from '../../core/tools/tools-summary';
import { readyWithin } from '../../core/tools/wait-once';
import { QUESTION_WAITS_FOR_INDEXES_MS, TOOL_WAITS_FOR_INDEXES_MS } from '../../core/engine';
import type {
  CellAddress,
  FilePath,
  DbEngine,
  EmbeddingModelConfig,
  KeepProgress,
  KeptState,
  OpenRequest,
  SchemaRequest,
  StatsOptions,
  ToolCallExtras,
  ToolsOptions,
  ToolsSummary,
  WaitOptions,
  WholeValue,
} from '../../core/engine';
import type { ColumnDescriptions } from '../../core/retrieval/column-index';
import type { Embedder } from '../../core/retrieval/embedder';
import { linkQuestion as linkByNames, type QuestionLink } from '../../core/retrieval/linker';
import type { Grounding } from '../../core/prompt/grounded-schema';
import { callBeforeIndexes, indexesNotReady, runsBeforeIndexes, type ToolCallOutcome } from '../../core/tools/registry';
import type { TokenizerWorkers } from '../../core/retrieval/value-tokenizer';
import { sampledGrounding } from '../../core/tools/sampled-grounding';
import { buildToolbox, type Toolbox, type ToolboxProgress } from '../../core/tools/toolbox';
import {
  type FileIdentity,
  KEEP_INDEXES_FROM_CELLS,
  toolboxKey,
  type ToolboxStore,
} from '../../core/tools/toolbox-snapshot';
import type { ContentHasher, ContentSource } from '../../core/tools/content-digest';
import { KeepTracker, KeptToolboxes, type KeptFile } from '../../core/tools/kept-toolbox';
import { DEFAULT_VALUE_CELL_BUDGET } from '../../core/retrieval/distinct-values';
import { findWrite, type BytecodeRow } from '../../core/sql/bytecode-guard';
import { assertSingleReadStatement, UnknownStatementError } from '../../core/sql/statements';
import { withSyntaxPosition } from '../../core/sql/syntax-position';
import { significant, tokenize } from '../../core/sql/tokens';
import { introspect } from '../../core/schema/introspect';
import { columnStats } from '../../core/schema/stats';
import type {
  ColumnStats,
  OpenIssue,
  OpenReport,
  QueryOptions,
  QueryResult,
  Schema,
  SqlValue,
  StorageClass,
} from '../../core/types';
import { healthCheck } from './health-check';
import { planTableFile, type TablePlan } from '../../core/import/table-file';
import { decodeTable } from '../../core/import/decode-text';
import { importReport } from '../../core/import/import-report';
import type { ImportedFile } from '../../core/import/imported-file';
import { quoteIdent } from '../../core/sql/quote';
import { canScan, scanRows } from './scan';
import { bulkInserter, canBulkInsert } from './bulk-insert';

interface OpenDb {
  db: Connection;
  /** The same database as sql.js's own object, when it is in memory: scans read its rows in place. */
  sqljs?: Database;
  report: OpenReport;
  rowCounts: Map<string, number | null>;
  toolbox?: Promise<Toolbox>;
  /**
   * The last whole schema read (no `only`, nothing skipped): the database is read-only, so it
   * stays true, and a question's links and sampled grounding need not count rows again.
   */
  schema?: Schema;
  /** The build a question already waited for in vain (toolboxWithin): not waited for again. */
  waitedFor?: Promise<Toolbox>;
  /** The options of the last build (descriptions updated by setDescriptions), for lazy rebuilds. */
  toolOptions: ToolsOptions;
  /** What identifies the file opened (none for bytes a caller passed, or imported tables): the key of its kept indexes. */
  identity?: FileIdentity;
  /** The file's bytes as they were read, for the checksum that confirms a kept index is its own (issue 35). */
  content?: ContentSource;
  /** False once a file read in place changed after it was opened. */
  unchanged?: () => boolean;
  /** The indexes being built and kept for the next opening (finishKeeping). */
  keeping?: KeepTracker;
}

/** Makes an embedder for a configured model (transformers.js in a worker or in Node); injected. */
export type EmbedderFactory = (config: EmbeddingModelConfig) => Promise<Embedder>;

/** What the place the engine runs in provides (all optional). */
export interface EngineHost {
  /** SQLite's heap size (see runtime.ts). */
  heapBytes?: () => number;
  /** SQLite's heap (runtime.ts): with it, whole-table reads visit rows in place (scan.ts). */
  heap?: () => Uint8Array;
  /** Reads a file by path (Node): lets a worker thread read the database itself. */
  readPath?: (path: string) => Promise<Uint8Array>;
  /** Tokenizing workers for the value index of large databases (decision 014). */
  tokenizerWorkers?: TokenizerWorkers;
  /** The value index's budget when a build does not give one (the CLI's DOWSER_INDEX_CELLS). */
  valueCellBudget?: number | null;
  /**
   * Reading a database where it lies (issue 26, decision 064): a file opened for reads at any
   * offset (a Blob in the browser's worker, a path in Node), and SQLite over it.
   */
  fileReading?: {
    open(source: Blob | FilePath): RandomAccessFile;
    sqlite(): Promise<{ open(file: RandomAccessFile, walAsRollback: boolean): Connection }>;
    /** That SQLite's heap, 0 until it is loaded: counted with sql.js's for the worker's memory limit. */
    heapBytes?(): number;
  };
  /** Where a file's indexes are kept between visits (issue 26); none: always built. */
  toolboxStore?: ToolboxStore;
  /** Databases with fewer text cells are not kept (default KEEP_INDEXES_FROM_CELLS; tests keep every build). */
  keepFromCells?: number;
  /** A path's last modification (Node): part of the key of its kept indexes. */
  modifiedMs?: (path: string) => number;
  /** The checksum of a whole file (issue 35): without one, no index is kept, since none could be confirmed. */
  contentHasher?: ContentHasher;
  /** What a tool that needs the indexes waits for a build under way (default TOOL_WAITS_FOR_INDEXES_MS; tests wait less). */
  toolWaitMs?: number;
}

/** Bytes of a file's start that identify it with its size and modification time (SQLite's header and first page). */
const IDENTITY_HEAD_BYTES = 64 * 1024;

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function storageClassOf(v: SqlValue): StorageClass {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return 'real';
  if (typeof v === 'string') return 'text';
  return 'blob';
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Tables of a file read where it lies are counted exactly up to this many rows, then estimated
 * (introspect's `exactRowsUpTo`): a few tenths of a second of reading per table in a browser,
 * whatever the file's size (a million rows kept the 300 MB shop's schema near 2 s there: issue 38).
 */
const FILE_EXACT_ROW_COUNT = 100_000;

/** Above this size a Blob is read in a stream, so the page can show progress. */
const STREAM_ABOVE_BYTES = 64 * 1024 * 1024;

/** Reads a Blob (a File) where the engine runs: in the browser, inside the worker. */
async function readBlob(blob: Blob, onProgress?: (fraction: number) => void): Promise<Uint8Array> {
  checkFileSize(blob.size);
  if (!onProgress || blob.size <= STREAM_ABOVE_BYTES) return new Uint8Array(await blob.arrayBuffer());
  const out = new Uint8Array(blob.size);
  const reader = blob.stream().getReader();
  let offset = 0;
  let reported = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.set(value, offset);
    offset += value.length;
    if (offset - reported >= 16 * 1024 * 1024) {
      reported = offset;
      onProgress(offset / blob.size);
    }
  }
  return offset === out.length ? out : out.subarray(0, offset);
}

/**
 * Bytes handed over to sql.js instead of copied. sql.js writes the array given to
 * `new Database` into its in-memory file system, whose first write to an empty file keeps
 * `data.slice(…)`: a copy, so the file was held twice until the read buffer was collected
 * (twice the file's size at the peak of every open; decision 012). This view's slice() is
 * subarray(), so the file system keeps these very bytes. Only for bytes the engine read itself
 * (a path, a Blob): nobody else holds them, and the connection is query_only, so SQLite never
 * writes to them.
 */
class HandedOverBytes extends Uint8Array {
  override slice(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    return this.subarray(start, end);
  }
}

/**
 * A file held in memory as a content source for its checksum; `head18` are its bytes 18-19 as
 * read, which opening a WAL-mode file changes on our copy (so the checksum is the file's).
 */
function bytesContent(bytes: Uint8Array, head18: Uint8Array): ContentSource {
  return {
    size: bytes.length,
    read(offset, into) {
      const part = bytes.subarray(offset, offset + into.length);
      into.set(part);
      for (let i = 0; i < head18.length; i++)
        if (18 + i >= offset && 18 + i < offset + part.length) into[18 + i - offset] = head18[i];
      return part.length;
    },
  };
}

/** sql.js binds a bigint as text; exact ones go in as numbers, the rest as their digits. */
function bindable(v: SqlValue): Exclude<SqlValue, bigint> {
  if (typeof v !== 'bigint') return v;
  return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : String(v);
}

/**
 * Reads a row with integers as bigints (sql.js would otherwise round 64-bit integers to doubles
 * and lose the integer/real distinction), then turns exact ones back into plain numbers.
 */
function readRow(stmt: ConnectionStatement, seen: Set<StorageClass>[]): SqlValue[] {
  const raw = stmt.get(null, { useBigInt: true });
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    if (v === null) continue;
    seen[i].add(storageClassOf(v));
    if (typeof v === 'bigint' && v <= MAX_SAFE && v >= -MAX_SAFE) raw[i] = Number(v);
  }
  return raw;
}

/** Closes the sidecar files no layer reads (a layer's are closed with the database). */
function closeSidecars(files: SidecarFiles, layers: Recovery['layers']): void {
  for (const file of [files.journal, files.wal]) if (file && !layers.some((l) => l.source === file)) file.close();
}

/** A failure as a DowserError; a syntax error says where in `sql` SQLite stopped. */
/** `readingRows`: raised after the statement compiled, so SQLite's message may quote cell values. */
function sqlError(e: unknown, sql?: string, readingRows = false): DowserError {
  const err = toDowserError(e, 'sql_error');
  if (err.code !== 'internal' && err.code !== 'sql_error') return err;
  return new DowserError(
    'sql_error',
    sql && !readingRows ? withSyntaxPosition(err.message, sql) : err.message,
    err.detail,
    readingRows || err.quotesData,
  );
}

export class SqljsEngine implements DbEngine {
  private readonly dbs = new Map<string, OpenDb>();
  private kept?: KeptToolboxes;

  constructor(
    private readonly SQL: SqlJsStatic,
    private readonly makeEmbedder?: EmbedderFactory,
    private readonly host: EngineHost = {},
  ) {}

  async heapBytes(): Promise<number> {
    return (this.host.heapBytes?.() ?? 0) + (this.host.fileReading?.heapBytes?.() ?? 0);
  }

  private async readSource(source: OpenRequest['bytes'], onProgress?: (fraction: number) => void) {
    if (source instanceof Uint8Array) return source;
    if (source instanceof Blob) return readBlob(source, onProgress);
    if (!this.host.readPath) throw new DowserError('open_failed', 'This engine cannot read files by path.');
    try {
      return await this.host.readPath(source.path);
    } catch (e) {
      throw new DowserError('open_failed', `Cannot read "${source.path}": ${toDowserError(e).message}`);
    }
  }

  async open(request: OpenRequest, onProgress?: (fraction: number) => void): Promise<OpenReport> {
    if (request.tables) return this.openImported(request, request.tables);
    const { bytes: source } = request;
    const size = source instanceof Uint8Array ? source.length : source instanceof Blob ? source.size : undefined;
    const reading = this.host.fileReading;
    const canReadFile = !!reading && !(source instanceof Uint8Array);
    // A path's size is known once it is opened: a path is opened for reading in place first.
    if (
      canReadFile &&
      (size === undefined ? request.read !== 'memory' : readPlace(size, request.read ?? 'auto', true) === 'file')
    ) {
      const file = this.openFile(source as Blob | FilePath);
      if (readPlace(file.size, request.read ?? 'auto', true) === 'file') return this.openFromFile(request, file);
      file.close();
    }
    return this.openInMemory(request, onProgress);
  }

  private openFile(source: Blob | FilePath): RandomAccessFile {
    try {
      return this.host.fileReading!.open(source);
    } catch (e) {
      const what = source instanceof Blob ? 'the file' : `"${source.path}"`;
      throw new DowserError('open_failed', `Cannot read ${what}: ${toDowserError(e).message}`);
    }
  }

  /** Pages read from the file as SQLite asks for them; nothing is copied whole (issue 26). */
  private async openFromFile(request: OpenRequest, file: RandomAccessFile): Promise<OpenReport> {
    const t0 = now();
    let db: Connection;
    let header: ReturnType<typeof readHeader>;
    let recovery: Recovery;
    const head = new Uint8Array(Math.min(file.size, IDENTITY_HEAD_BYTES));
    try {
      file.read(0, head);
      header = readHeader(head, file.size);
      // A journal's or log's pages are laid over the file as SQLite reads it (core/db/sidecars.ts).
      const sidecars = this.sidecarFiles(request, (source) => this.openFile(source));
      try {
        recovery = recoverFromSidecars(header.pageSize, file.size, sidecars);
      } catch (e) {
        closeSidecars(sidecars, []);
        throw e;
      }
      closeSidecars(sidecars, recovery.layers);
      for (const { source, overlay } of recovery.layers) file = overlaid(file, source, overlay);
      if (recovery.layers.length) {
        file.read(0, head.subarray(0, Math.min(head.length, file.size)));
        header = readHeader(head.subarray(0, Math.min(head.length, file.size)), file.size);
      }
      db = (await this.host.fileReading!.sqlite()).open(file, header.walMode);
    } catch (e) {
      file.close();
      if (e instanceof DowserError) throw e;
      throw new DowserError('open_failed', `SQLite could not open this file: ${toDowserError(e).message}`);
    }
    const report = this.finishOpen(request, db, undefined, header, file.size, t0, 'file', recovery.issues);
    // Pages laid over the file make it another database than its name, size and date say: not kept.
    if (!recovery.layers.length) {
      const entry = this.get(request.id);
      entry.identity = this.identityOf(request.bytes, head, file.size);
      const read = file.readThrough ?? file.read;
      entry.content = { size: file.size, read: (offset, into) => read.call(file, offset, into) };
      entry.unchanged = () => this.stillAsOpened(request.bytes, entry.identity);
    }
    return report;
  }

  /** The request's journal and log as files, opened by `open` unless they are bytes already. */
  private sidecarFiles(request: OpenRequest, open: (source: Blob | FilePath) => RandomAccessFile): SidecarFiles {
    const files: SidecarFiles = {};
    for (const kind of ['journal', 'wal'] as const) {
      const source = request[kind];
      if (!source) continue;
      try {
        files[kind] = source instanceof Uint8Array ? bytesFile(source) : open(source);
      } catch (e) {
        closeSidecars(files, []);
        throw e;
      }
    }
    return files;
  }

  /** The request's journal and log read into memory, and what they change (core/db/sidecars.ts). */
  private async sidecarsInMemory(request: OpenRequest, pageSize: number, dbBytes: number): Promise<Recovery> {
    const files: SidecarFiles = {};
    for (const kind of ['journal', 'wal'] as const) {
      const source = request[kind];
      // Not readSource: a Blob's size check refuses an empty file, and an empty journal or log is common.
      if (source)
        files[kind] = bytesFile(
          source instanceof Blob ? new Uint8Array(await source.arrayBuffer()) : await this.readSource(source),
        );
    }
    return recoverFromSidecars(pageSize, dbBytes, files);
  }

  private async openInMemory(request: OpenRequest, onProgress?: (fraction: number) => void): Promise<OpenReport> {
    const { bytes: source } = request;
    const t0 = now();
    let bytes = await this.readSource(source, onProgress);
    let header = readHeader(bytes);
    // Taken (a copy of the head) before the bytes are handed to sql.js.
    let identity = this.identityOf(source, bytes, bytes.length);
    // Bytes the engine read are its own: handed over; bytes a caller passed are copied by sql.js.
    let owned = !(source instanceof Uint8Array);
    const recovery = await this.sidecarsInMemory(request, header.pageSize, bytes.length);
    if (recovery.layers.length) {
      // Undone or caught up on the private copy, as SQLite would on the file (core/db/sidecars.ts).
      if (!owned) bytes = new Uint8Array(bytes);
      owned = true;
      for (const { source: pages, overlay } of recovery.layers) bytes = applyOverlay(bytes, pages, overlay);
      if (bytes.length === 0)
        throw new DowserError(
          'empty_file',
          'The database was new, and its first transaction never finished: undone, as SQLite would, it holds nothing.',
        );
      header = readHeader(bytes);
      identity = undefined; // no longer the file its name, size and date describe: its indexes are not kept
    }
    let data = owned ? new HandedOverBytes(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength) : bytes;
    // The file's own bytes, for its checksum (the WAL mark below changes these two on our copy).
    const content = identity ? bytesContent(bytes, bytes.slice(18, 20)) : undefined;
    if (header.walMode) {
      // sql.js has no shared memory for WAL; on our private copy, mark the file as
      // rollback-journal so SQLite reads the main file. The user's file is untouched.
      // A caller's bytes are copied with the constructor first: a Node Buffer's slice() is a
      // view, and setting the bytes below through it would change the caller's data.
      if (!owned) data = new Uint8Array(bytes);
      data[18] = 1;
      data[19] = 1;
    }
    let db: Database;
    try {
      db = new this.SQL.Database(data);
    } catch (e) {
      throw new DowserError('open_failed', `SQLite could not open this file: ${toDowserError(e).message}`);
    }
    const report = this.finishOpen(request, db, db, header, bytes.length, t0, 'memory', recovery.issues);
    const entry = this.get(request.id);
    entry.identity = identity;
    entry.content = content;
    // The bytes in memory are what the index reads and what the checksum is of, whatever the file does.
    entry.unchanged = () => true;
    return report;
  }

  /**
   * What identifies a file the engine read itself (a File or a path; `head`: its first bytes, or
   * all of them), for its kept indexes;
   * undefined for bytes a caller passed (nothing tells whether they changed), or no store.
   */
  private identityOf(source: OpenRequest['bytes'], head: Uint8Array, sizeBytes: number): FileIdentity | undefined {
    if (!this.host.toolboxStore || !this.host.contentHasher || source instanceof Uint8Array) return undefined;
    try {
      const modifiedMs =
        source instanceof Blob
          ? typeof File !== 'undefined' && source instanceof File
            ? source.lastModified
            : undefined
          : this.host.modifiedMs?.(source.path);
      if (modifiedMs === undefined) return undefined;
      return { sizeBytes, modifiedMs, head: head.slice(0, IDENTITY_HEAD_BYTES) };
    } catch {
      return undefined; // a file that cannot be stat'ed has no kept indexes
    }
  }

  /**
   * Whether a file read in place is still as it was opened (its modification time): one written
   * to meanwhile gave the index some pages of each version. A File is a snapshot (the browser
   * refuses reads of a changed one).
   */
  private stillAsOpened(source: OpenRequest['bytes'], identity: FileIdentity | undefined): boolean {
    if (!identity || source instanceof Uint8Array || source instanceof Blob) return true;
    try {
      return this.host.modifiedMs?.(source.path) === identity.modifiedMs;
    } catch {
      return false;
    }
  }

  /** Makes the connection query_only, proves the schema readable, and keeps it under the request's id. */
  private finishOpen(
    request: OpenRequest,
    db: Connection,
    sqljs: Database | undefined,
    header: ReturnType<typeof readHeader>,
    sizeBytes: number,
    t0: number,
    readFrom: ReadPlace,
    sidecarIssues: OpenIssue[],
  ): OpenReport {
    // `wal` given, or null (the caller looked beside the file): no warning that it was left out.
    const issues: OpenIssue[] = [...sidecarIssues, ...headerIssues(header, sizeBytes, request.wal !== undefined)];
    try {
      db.exec('PRAGMA query_only = 1');
      db.exec('SELECT count(*) FROM sqlite_schema');
    } catch (e) {
      db.close();
      const msg = toDowserError(e).message;
      const truncated = issues.find((i) => i.code === 'truncated');
      if (truncated) throw new DowserError('corrupt', `${truncated.message} SQLite cannot read its schema (${msg}).`);
      if (/not a database|encrypted/i.test(msg))
        throw new DowserError(
          'encrypted',
          `SQLite cannot read this file (${msg}). It may be encrypted or not a database.`,
        );
      throw new DowserError('corrupt', `The database is damaged and its schema cannot be read: ${msg}`);
    }
    const version = db.exec('SELECT sqlite_version()')[0].values[0][0] as string;
    this.dbs.get(request.id)?.db.close();
    const report: OpenReport = {
      id: request.id,
      name: request.name,
      sizeBytes,
      sqliteVersion: version,
      pageSize: header.pageSize,
      pageCount: header.pageCount,
      quickCheck: [],
      issues,
      openMs: Math.round((now() - t0) * 10) / 10,
      readFrom,
    };
    this.dbs.set(request.id, { db, sqljs, report, rowCounts: new Map(), toolOptions: {} });
    return report;
  }

  /**
   * Table files imported into a new in-memory database (issue 26): each decoded in the encoding
   * asked for or decided (core/import/decode-text.ts), planned by core's `planTableFile` (its
   * header as asked or decided on evidence; rows inserted as they are parsed, never held), written
   * as one table, then the database is made read-only like any other. What each file became, and
   * the rows that did not fit, are reported as issues and in `imports` (issue 35).
   */
  private async openImported(request: OpenRequest, tables: NonNullable<OpenRequest['tables']>): Promise<OpenReport> {
    const t0 = now();
    const sources: Uint8Array[] = [];
    for (const file of tables) sources.push(await this.readSource(file.bytes));
    const sizeBytes = sources.reduce((n, b) => n + b.length, 0);
    const db = this.presizedDatabase(sizeBytes);
    const issues: OpenIssue[] = [];
    const imports: ImportedFile[] = [];
    const used = new Set<string>();
    try {
      db.exec('BEGIN');
      for (const [n, file] of tables.entries()) {
        const { text, ...encoding } = decodeTable(sources[n], file.encoding ?? 'auto');
        let parsed: TablePlan;
        try {
          parsed = planTableFile(file.name, text, { types: file.types, header: file.header ?? 'auto' });
        } catch (e) {
          throw new DowserError('open_failed', toDowserError(e).message);
        }
        if (parsed.columns.length === 0) throw new DowserError('open_failed', `${file.name}: the file holds no rows.`);
        let table = parsed.table;
        for (let n = 2; used.has(table.toLowerCase()); n++) table = `${parsed.table}_${n}`;
        used.add(table.toLowerCase());
        let rows = this.importTable(db, table, parsed);
        // A value past the first rows was no number of its column's sampled type: imported again
        // with the types every value allows, so no value was converted by a wrong guess.
        const seen = parsed.typesSeen();
        if (parsed.sampled && seen.some((t, c) => t !== parsed.columns[c].type)) {
          db.exec(`DROP TABLE ${quoteIdent(table)}`);
          parsed = parsed.withTypes(seen);
          rows = this.importTable(db, table, parsed);
        }
        const said = importReport(file.name, table, parsed, encoding, rows);
        issues.push(...said.issues);
        imports.push(said.imported);
      }
      db.exec('COMMIT');
      db.exec('PRAGMA query_only = 1');
    } catch (e) {
      db.close();
      throw e instanceof DowserError ? e : new DowserError('open_failed', toDowserError(e).message);
    }
    const version = db.exec('SELECT sqlite_version()')[0].values[0][0] as string;
    const page = (pragma: string) => Number(db.exec(`PRAGMA ${pragma}`)[0]?.values[0][0] ?? 0);
    this.dbs.get(request.id)?.db.close();
    const report: OpenReport = {
      id: request.id,
      name: request.name,
      sizeBytes,
      sqliteVersion: version,
      pageSize: page('page_size'),
      pageCount: page('page_count'),
      quickCheck: [],
      issues,
      openMs: Math.round((now() - t0) * 10) / 10,
      readFrom: 'memory',
      imported: true,
      imports,
    };
    this.dbs.set(request.id, { db, sqljs: db, report, rowCounts: new Map(), toolOptions: {} });
    return report;
  }

  /**
   * A new database whose file (in sql.js's memory file system) already has room for about what
   * `tableBytes` of text make: SQLite writes its pages in place instead of the file system
   * growing by an eighth and copying itself each time (a fifth of a 500 MB import). SQLite
   * reads the size of the database from the header, and cuts the file to it at the commit.
   */
  private presizedDatabase(tableBytes: number): Database {
    const empty = new this.SQL.Database();
    let image: Uint8Array;
    try {
      empty.exec('PRAGMA page_size = 4096; CREATE TABLE x (y); DROP TABLE x;');
      image = empty.export();
    } finally {
      empty.close();
    }
    const room = new HandedOverBytes(Math.max(image.length, Math.ceil(tableBytes * 1.2) + (1 << 20)));
    room.set(image);
    return new this.SQL.Database(room);
  }

  /** Creates `table` as `plan` says and inserts its rows; returns how many. */
  private importTable(db: Database, table: string, plan: TablePlan): number {
    const columns = plan.columns.map((c) => `${quoteIdent(c.name)} ${c.type}`).join(', ');
    db.exec(`CREATE TABLE ${quoteIdent(table)} (${columns})`);
    const insertSql = `INSERT INTO ${quoteIdent(table)} VALUES (${plan.columns.map(() => '?').join(', ')})`;
    if (this.host.heap && canBulkInsert(this.SQL)) {
      // Cells bound from one buffer in the wasm heap (bulk-insert.ts), not one allocation each.
      const insert = bulkInserter(this.SQL, db, this.host.heap, insertSql);
      try {
        return plan.eachRow((row) => insert.add(row));
      } finally {
        insert.close();
      }
    }
    const insert = db.prepare(insertSql);
    try {
      return plan.eachRow((row) => insert.run(row as Array<number | string | null>));
    } finally {
      insert.free();
    }
  }

  async exportImported(id: string): Promise<Uint8Array> {
    const { report, sqljs } = this.get(id);
    if (!report.imported || !sqljs)
      throw new DowserError('read_only', 'Only a database made from CSV, TSV or JSON files is saved as a SQLite file.');
    try {
      return sqljs.export();
    } finally {
      // sql.js closes and reopens the database to export it, which resets every pragma.
      sqljs.exec('PRAGMA query_only = 1');
    }
  }

  async close(id: string): Promise<void> {
    this.dbs.get(id)?.db.close();
    this.dbs.delete(id);
  }

  private get(id: string): OpenDb {
    const entry = this.dbs.get(id);
    if (!entry) throw new DowserError('unknown_database', `No open database with id "${id}".`);
    return entry;
  }

  /** quick_check, empty-database and unreadable-virtual-table findings, added to the report. */
  async check(id: string): Promise<OpenReport> {
    const entry = this.get(id);
    const { readFrom, sizeBytes } = entry.report;
    const integrity = !(readFrom === 'file' && sizeBytes > CHECK_IN_PLACE_UP_TO_BYTES);
    const found = await healthCheck(executorFor(this, id), { integrity });
    entry.report = { ...entry.report, quickCheck: found.quickCheck, issues: [...entry.report.issues, ...found.issues] };
    return entry.report;
  }

  async query(id: string, sql: string, options: QueryOptions = {}): Promise<QueryResult> {
    return this.run(
      id,
      sql,
      options,
      new ResultBudget(
        options.maxCellChars ?? DEFAULT_MAX_CELL_CHARS,
        options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
      ),
    );
  }

  async wholeValue(id: string, sql: string, at: CellAddress): Promise<WholeValue> {
    // Only the wanted column may be long: a budget for it alone, the other cells cut short.
    const r = await this.run(
      id,
      sql,
      { offset: at.row, maxRows: 1, params: at.params },
      new ResultBudget(WHOLE_VALUE_MAX, Infinity),
      at.column,
    );
    if (r.rows.length === 0) throw new DowserError('sql_error', 'The statement no longer returns that row.');
    if (at.column < 0 || at.column >= r.columns.length)
      throw new DowserError('sql_error', `The statement has no column ${at.column + 1}.`);
    const value = r.rows[0][at.column];
    const cut = r.cut?.find((c) => c.column === at.column);
    const length = typeof value === 'string' || value instanceof Uint8Array ? value.length : 0;
    return { value, length: cut?.length ?? length, cut: !!cut };
  }

  /** Runs one read statement; `onlyColumn` keeps other columns out of the budget (read, then dropped to null). */
  private async run(
    id: string,
    sql: string,
    options: QueryOptions,
    budget: ResultBudget,
    onlyColumn?: number,
  ): Promise<QueryResult> {
    const { db } = this.get(id);
    const text = this.readGate(db, sql);
    const t0 = now();
    // Never db.exec() here: it runs every statement SQLite finds in the text, not just the first.
    if (/^\s*explain\b/i.test(text)) this.compileOne(db, text);
    else this.assertBytecodeReads(db, text);
    const maxRows = Math.max(0, options.maxRows ?? DEFAULT_MAX_ROWS);
    const offset = Math.max(0, options.offset ?? 0);
    let stmt: ConnectionStatement | undefined;
    let compiled = false;
    try {
      stmt = db.prepare(text);
      compiled = true;
      if (options.params?.length) stmt.bind(options.params.map(bindable));
      const columns = stmt.getColumnNames();
      const seen = columns.map(() => new Set<StorageClass>());
      const rows: SqlValue[][] = [];
      let skipped = 0;
      let truncated = false;
      let byteLimited = false;
      while (stmt.step()) {
        if (skipped < offset) {
          skipped++;
          continue;
        }
        if (rows.length >= maxRows || budget.spent) {
          truncated = true;
          byteLimited = rows.length < maxRows;
          break;
        }
        const row = readRow(stmt, seen);
        if (onlyColumn !== undefined) for (let i = 0; i < row.length; i++) if (i !== onlyColumn) row[i] = null;
        budget.take(row, rows.length);
        rows.push(row);
      }
      return {
        columns,
        rows,
        truncated,
        offset,
        columnTypes: seen.map((s) => [...s]),
        elapsedMs: Math.round((now() - t0) * 10) / 10,
        ...(budget.cut.length ? { cut: budget.cut } : {}),
        ...(byteLimited ? { byteLimit: budget.maxBytes } : {}),
      };
    } catch (e) {
      throw sqlError(e, text, compiled);
    } finally {
      stmt?.free();
    }
  }

  /**
   * The keyword gate. A statement whose first word is no SQL verb (a typo such as `SELEC`) is not
   * a write: SQLite compiles it (compiling runs nothing) and reports its own syntax error.
   */
  private readGate(db: Connection, sql: string): string {
    try {
      return assertSingleReadStatement(sql);
    } catch (e) {
      if (e instanceof UnknownStatementError) this.compileOne(db, e.statement);
      throw e;
    }
  }

  /**
   * Compiles `sql` with SQLite's own parser and refuses it when SQLite reads more than one
   * statement in it: the keyword gate's lexer could disagree with SQLite on where a statement
   * ends, and text SQLite would see as a second statement must never reach it. Only the first
   * statement is compiled, and compiling a statement that passed the keyword gate has no effect.
   * `inspect` sees the compiled statement (e.g. to read an EXPLAIN listing) before it is freed.
   */
  private compileOne(db: Connection, sql: string, inspect?: (stmt: ConnectionStatement) => void): void {
    const it = db.iterateStatements(sql);
    try {
      const first = it.next();
      const rest = it.getRemainingSQL();
      if (significant(tokenize(rest)).some((t) => t.text !== ';')) {
        throw new DowserError(
          'multiple_statements',
          'Only one statement runs at a time, and SQLite reads more than one here.',
        );
      }
      if (!first.done) inspect?.(first.value);
    } catch (e) {
      throw sqlError(e, sql.replace(/^EXPLAIN /, ''));
    } finally {
      // Frees the statement and the iterator's copy of the SQL (`return` is not in the typings).
      (it as { return?: () => unknown }).return?.();
    }
  }

  /** Second gate: the compiled program (EXPLAIN) must not write; see core/sql/bytecode-guard. */
  private assertBytecodeReads(db: Connection, text: string): void {
    let program: BytecodeRow[] = [];
    this.compileOne(db, `EXPLAIN ${text}`, (stmt) => {
      const columns = stmt.getColumnNames();
      const [op, p1, p2, p3, p4] = ['opcode', 'p1', 'p2', 'p3', 'p4'].map((n) => columns.indexOf(n));
      const rows: BytecodeRow[] = [];
      while (stmt.step()) {
        const v = stmt.get();
        rows.push({
          opcode: String(v[op]),
          p1: Number(v[p1]),
          p2: Number(v[p2]),
          p3: Number(v[p3]),
          p4: v[p4] == null ? null : String(v[p4]),
        });
      }
      program = rows;
    });
    const why = findWrite(program);
    if (why) throw new DowserError('read_only', `Only reading is allowed: this statement writes (${why}).`);
  }

  async introspect(id: string, options: SchemaRequest = {}): Promise<Schema> {
    const entry = this.get(id);
    const fromFile = entry.report.readFrom === 'file';
    const schema = await introspect(executorFor(this, id), {
      ...options,
      ...(fromFile ? { exactRowsUpTo: FILE_EXACT_ROW_COUNT } : {}),
    });
    // An estimate (a very large table) is enough for statistics: they read the first rows only.
    for (const t of schema.tables) if (!t.skipped) entry.rowCounts.set(t.name, t.rowCount);
    if (!options.only && !schema.incomplete) entry.schema = schema;
    return schema;
  }

  async columnStats(id: string, table: string, column: string, options: StatsOptions = {}): Promise<ColumnStats> {
    const entry = this.get(id);
    return columnStats(executorFor(this, id), {
      table,
      column,
      rowCount: entry.rowCounts.get(table),
      rowBudget: options.rowBudget,
    });
  }

  /** Runs one read statement and visits its rows in place (scan.ts), through the same gates as `query`. */
  async scan(id: string, sql: string, params: readonly SqlValue[], visit: (row: ScanRow) => void): Promise<number> {
    const { db, sqljs } = this.get(id);
    const heap = this.host.heap;
    if (!this.canScan(id)) throw new DowserError('internal', 'This engine cannot scan rows in place.');
    const text = this.readGate(db, sql);
    this.assertBytecodeReads(db, text);
    try {
      if (db.scan) return db.scan(text, params.map(bindable), visit);
      return scanRows(this.SQL, sqljs!, heap!, text, params, visit);
    } catch (e) {
      throw sqlError(e, text);
    }
  }

  /** A database read from its file scans with its own connection; one in memory with scan.ts. */
  private canScan(id: string): boolean {
    const { db, sqljs } = this.get(id);
    return !!db.scan || (!!this.host.heap && !!sqljs && canScan(this.SQL));
  }

  /** The executor the toolbox reads with: with `scan` where this engine can scan. */
  private scanningExecutor(id: string): SqlExecutor {
    const exec = executorFor(this, id);
    if (!this.canScan(id)) return exec;
    return { ...exec, scan: (sql, params, visit) => this.scan(id, sql, params, visit) };
  }

  async buildTools(
    id: string,
    options: ToolsOptions = {},
    onProgress?: (p: ToolboxProgress) => void,
  ): Promise<ToolsSummary> {
    const entry = this.get(id);
    entry.toolOptions = options;
    const keptToolboxes = this.keptToolboxes();
    const keeping = (entry.keeping ??= new KeepTracker());
    /** The file as its kept indexes know it, when they may be kept (a store, a file the engine read, keeping on). */
    const keptFile = (budget: number | null | undefined): KeptFile | null =>
      keptToolboxes && entry.identity && entry.content && options.keep !== false
        ? {
            key: toolboxKey(entry.identity, { valueCellBudget: budget ?? DEFAULT_VALUE_CELL_BUDGET }),
            content: entry.content,
            unchanged: entry.unchanged ?? (() => true),
          }
        : null;
    const budget = options.valueCellBudget === undefined ? this.host.valueCellBudget : options.valueCellBudget;
    const kept = keptFile(budget);
    let keptState: Promise<KeptState> = Promise.resolve('not-kept');
    const job = this.keepToolbox(
      entry,
      (async () => {
        const schema = await this.knownSchema(id);
        let embedder: Embedder | null = null;
        let loadProblem: string | null = null;
        if (options.embeddingModel && this.makeEmbedder) {
          try {
            embedder = await this.makeEmbedder(options.embeddingModel);
          } catch (e) {
            loadProblem = e instanceof Error ? e.message : String(e);
          }
        }
        const exec = this.scanningExecutor(id);
        const reused = kept
          ? await keptToolboxes!.reuse(kept, exec, schema, { descriptions: options.descriptions, embedder }, onProgress)
          : null;
        const toolbox =
          reused ??
          (await buildToolbox(exec, schema, {
            descriptions: options.descriptions,
            valueCellBudget: budgetOf(budget),
            embedder,
            onProgress: (p) => {
              onProgress?.(p);
              keeping.tell({ phase: 'building', fraction: p.total ? p.done / p.total : 0 });
            },
            tokenizerWorkers: this.host.tokenizerWorkers,
          }));
        // Kept for the next visit when it took long to make. Not awaited: the answer need not
        // wait; a one-shot CLI run waits for it before it exits (finishKeeping).
        if (!reused && kept) keptState = keptToolboxes!.keep(kept, toolbox, (p) => keeping.tell(p));
        if (loadProblem)
          toolbox.semanticNote = `The embedding model "${options.embeddingModel!.modelId}" could not be loaded (${loadProblem}); column search is lexical only.`;
        return toolbox;
      })(),
    );
    // What finishKeeping waits for: this build, then its checksum and write.
    if (kept)
      keeping.track(
        job.then(
          (t) => (t.reused ? 'reused' : keptState),
          () => 'failed',
        ),
      );
    return summarizeToolbox(await job);
  }

  /** Reuses and keeps indexes when the host keeps them and can take a file's checksum. */
  private keptToolboxes(): KeptToolboxes | null {
    const { toolboxStore: store, contentHasher: hasher } = this.host;
    if (!store || !hasher) return null;
    return (this.kept ??= new KeptToolboxes({
      store,
      hasher,
      keepFromCells: this.host.keepFromCells ?? KEEP_INDEXES_FROM_CELLS,
    }));
  }

  async finishKeeping(id: string, onProgress?: (p: KeepProgress) => void): Promise<KeptState> {
    const keeping = this.dbs.get(id)?.keeping;
    return keeping ? keeping.finish(onProgress) : 'none';
  }

  async setDescriptions(id: string, descriptions: ColumnDescriptions): Promise<ToolsSummary> {
    const entry = this.get(id);
    entry.toolOptions = { ...entry.toolOptions, descriptions };
    if (!entry.toolbox) return this.buildTools(id, entry.toolOptions);
    // Waits for a build under way, then swaps only the column index.
    const previous = entry.toolbox;
    return summarizeToolbox(
      await this.keepToolbox(
        entry,
        previous.then((t) => t.withDescriptions(descriptions)),
      ),
    );
  }

  /** Makes `job` the database's toolbox; a failed one is forgotten so the next call builds again. */
  private keepToolbox(entry: OpenDb, job: Promise<Toolbox>): Promise<Toolbox> {
    entry.toolbox = job;
    job.catch(() => {
      if (entry.toolbox === job) entry.toolbox = undefined;
    });
    return job;
  }

  private toolboxOf(id: string): Promise<Toolbox> {
    const entry = this.get(id);
    if (!entry.toolbox) void this.buildTools(id, entry.toolOptions).catch(() => undefined);
    return entry.toolbox!;
  }

  /**
   * While the indexes are being built, SQL waits a second at most (a small file's build is done by
   * then, and its repair hints cite values), then runs on the database alone; a tool that needs the
   * indexes waits longer (TOOL_WAITS_FOR_INDEXES_MS), then says they are not ready.
   */
  async callTool(id: string, name: string, args: unknown, extras?: ToolCallExtras): Promise<ToolCallOutcome> {
    const job = this.toolboxOf(id);
    const waitMs = runsBeforeIndexes(name)
      ? Math.min(QUESTION_WAITS_FOR_INDEXES_MS, this.host.toolWaitMs ?? Infinity)
      : (this.host.toolWaitMs ?? TOOL_WAITS_FOR_INDEXES_MS);
    const toolbox = await readyWithin(job, waitMs, {});
    if (toolbox) return toolbox.call(name, args, undefined, extras);
    const early = callBeforeIndexes(name, args, { exec: executorFor(this, id), schema: await this.knownSchema(id) });
    return early ?? indexesNotReady(name, waitMs);
  }

  async linkQuestion(id: string, question: string, options: WaitOptions = {}): Promise<QuestionLink[]> {
    const toolbox = await this.toolboxWithin(id, options.waitMs);
    if (toolbox) return toolbox.link(question);
    // The indexes are still being built: names link now, values once they are read.
    return linkByNames(question, await this.knownSchema(id));
  }

  async grounding(id: string, options: WaitOptions = {}): Promise<Grounding> {
    const toolbox = await this.toolboxWithin(id, options.waitMs);
    if (toolbox) return toolbox.grounding();
    // The indexes are still being built: each table's first rows (core/tools/sampled-grounding.ts).
    const entry = this.get(id);
    return sampledGrounding(executorFor(this, id), await this.knownSchema(id), {
      rowCounts: entry.rowCounts,
      descriptions: entry.toolOptions.descriptions,
    });
  }

  /** The schema read last (see OpenDb.schema), or read now. */
  private async knownSchema(id: string): Promise<Schema> {
    return this.get(id).schema ?? this.introspect(id);
  }

  /** The toolbox if it is (or becomes) ready within `waitMs` (core/tools/wait-once.ts). */
  private toolboxWithin(id: string, waitMs: number | undefined): Promise<Toolbox | null> {
    return readyWithin(this.toolboxOf(id), waitMs, this.get(id));
  }
}

/** null is no limit; undefined the toolbox's default. */
const budgetOf = (b: number | null | undefined) => (b === null ? Infinity : b);
