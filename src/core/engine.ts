// The engine contract: several open databases behind one transport (in process, or a worker).
// It sits above the tools and the linker, whose types it carries; the low port is executor.ts.
// Core receives implementations; it never imports sql.js, a Worker or the file system itself.

import type { ColumnDescriptions } from './retrieval/column-index';
import type { QuestionLink } from './retrieval/linker';
import type { Grounding } from './prompt/grounded-schema';
import type { IntrospectOptions } from './schema/introspect';
import type { ToolCallOutcome } from './tools/registry';
import type { TokenizedIn, ToolboxProgress, ToolboxStage } from './tools/toolbox';
import type { ImportType } from './import/table-file';
import type { EncodingChoice, HeaderChoice } from './import/imported-file';
import type { ReadChoice } from './db/file-check';
import type { ColumnStats, OpenReport, QueryOptions, QueryResult, Schema, SqlValue } from './types';

export interface OpenRequest {
  /** Chosen by the caller so it can be reused when the engine restarts. */
  id: string;
  name: string;
  /**
   * The file. A Blob (a File) crosses to a worker as a handle, not a copy, and is read there, so
   * the page's main thread never copies a large database. In Node a path does the same: the
   * worker thread reads the file, and reads it again after a restart.
   */
  bytes: Uint8Array | Blob | FilePath;
  /**
   * Copy the file into memory, or read its pages from the file as needed (a Blob or a path, where
   * the engine can); `auto` (the default) chooses by size (core/db/file-check.ts, decision 064).
   */
  read?: ReadChoice;
  /**
   * The database's rollback journal (`<name>-journal`) and write-ahead log (`<name>-wal`), when
   * the caller has them: a transaction the journal shows unfinished is undone, and the log's
   * commits are read, over the private copy or the file read in place, as SQLite would
   * (core/db/sidecars.ts); no file is written. `wal: null`: the caller looked, and there is none
   * (no warning that a WAL-mode database came without it).
   */
  journal?: Uint8Array | Blob | FilePath | null;
  wal?: Uint8Array | Blob | FilePath | null;
  /**
   * CSV, TSV or JSON files to import into a new in-memory database, one table each (issue 26);
   * `bytes` is then not read. Imported again, the same way, when the engine restarts.
   */
  tables?: Array<{
    name: string;
    bytes: Uint8Array | Blob | FilePath;
    /** Column types the person chose, in column order (null or absent: inferred; core/import/table-file.ts). */
    types?: Array<ImportType | null>;
    /** Whether the first row names the columns (absent: `auto`, decided on evidence). */
    header?: HeaderChoice;
    /** The text's encoding (absent: `auto`, core/import/decode-text.ts). */
    encoding?: EncodingChoice;
  }>;
}

/** A file the engine reads itself (Node only; an engine without a file reader refuses it). */
export interface FilePath {
  path: string;
}

/** Introspection options that cross a worker boundary (no clock). */
export type SchemaRequest = Omit<IntrospectOptions, 'now'>;

/** Which cell of a statement's result to fetch whole (see DbEngine.wholeValue). */
export interface CellAddress {
  /** Row number in the whole result, 0-based (offset + index in the page shown). */
  row: number;
  column: number;
  params?: QueryOptions['params'];
}

/** One value of a result, read up to what a browser can hold. */
export interface WholeValue {
  value: SqlValue;
  /** Full length: characters of text, bytes of a blob, 0 for other values. */
  length: number;
  /** True when even this read had to cut the value (it is longer than WHOLE_VALUE_MAX). */
  cut: boolean;
}

export interface StatsOptions {
  /** Above this many rows, statistics come from the first rows only and are marked approximate. */
  rowBudget?: number;
}

export interface ToolsOptions {
  descriptions?: ColumnDescriptions;
  /**
   * Text cells the value index may hold, its memory budget (issue 26); above, each table is
   * indexed from its first rows and the tools say so. Absent: the default; null: no limit.
   */
  valueCellBudget?: number | null;
  /**
   * Keep the indexes of a file for its next opening, and use those kept (issue 26), where the
   * engine has a store; default true. False: none is read or written.
   */
  keep?: boolean;
  /** Embedding model to try; null/undefined = lexical only. */
  embeddingModel?: EmbeddingModelConfig | null;
}

export interface EmbeddingModelConfig {
  modelId: string;
  /** Where model files come from: the hub (remote) or a self-hosted path. */
  allowRemote: boolean;
  localModelPath?: string;
  remoteHost?: string;
}

/** What the page and CLI show about the built tools (the indexes themselves stay where the database is). */
export interface ToolsSummary {
  mode: 'lexical' | 'hybrid';
  semanticNote: string | null;
  columnsIndexed: number;
  /** Indexed columns with a description (imported or a note). */
  columnsDescribed: number;
  valuesIndexed: number;
  /** Columns whose values were sampled or are searched with LIKE, with the reason. */
  valuePolicies: Array<{ table: string; column: string; policy: string; note?: string }>;
  inferredKeys: number;
  timings: Partial<Record<ToolboxStage, number>>;
  /** Where the values were tokenized: a worker beside the engine, or the engine's own thread. */
  tokenizedIn: TokenizedIn;
  /** Made from the indexes kept from an earlier visit to the same file (issue 26), not read again. */
  reused: boolean;
  /** The sentence of each indexed column, in index order: what a separate embedding worker embeds. */
  columnSentences: string[];
}

/**
 * What became of a database's indexes for the next opening (issue 35, item 16): `none` (nothing
 * is kept for it: no store, bytes a caller passed, imported tables, or no build), `reused` (made
 * from a kept snapshot whose file checksum matched), `kept` (written), `not-kept` (too small to
 * be worth it, keeping turned off, or the file changed while it was read), `failed` (the build
 * or the write failed: built again next time).
 */
export type KeptState = 'none' | 'reused' | 'kept' | 'not-kept' | 'failed';

/** How far keeping the indexes is: the build, the file's checksum, the write. */
export interface KeepProgress {
  phase: 'building' | 'checksum' | 'writing';
  /** 0..1 of this phase (for `building`, of the build's current stage). */
  fraction: number;
}

/** How long a question waits for indexes under construction before it goes on with less. */
export interface WaitOptions {
  waitMs?: number;
}

/**
 * What a question asked in the page or the CLI waits for the indexes before its first request
 * goes out with sampled values and names-only links (issue 26). Evaluation waits for them all.
 */
export const QUESTION_WAITS_FOR_INDEXES_MS = 1_000;

/**
 * What a tool that needs the indexes (search_value, search_column, find_shortest_path) waits for a
 * build under way before it answers "not ready yet": well inside the agent's tool time limit (30 s),
 * so the model reads a reason it can act on instead of a time-out. SQL does not wait at all.
 */
export const TOOL_WAITS_FOR_INDEXES_MS = 15_000;

/** Per-call additions that are not model-facing arguments. */
export interface ToolCallExtras {
  /** Cosine similarity per indexed column (from an embedding worker) for search_column. */
  semantic?: Float32Array | null;
}

/**
 * Several open databases behind one transport: in-process (Node, tests) or a Web Worker
 * (browser). Every method is async so both transports share one contract and one test suite.
 */
export interface DbEngine {
  /** `onProgress(fraction)` while a large Blob is read. */
  open(request: OpenRequest, onProgress?: (fraction: number) => void): Promise<OpenReport>;
  /** Integrity check (PRAGMA quick_check) and other findings; slower than open, so separate. */
  check(id: string): Promise<OpenReport>;
  close(id: string): Promise<void>;
  /** Rows capped by `maxRows`, each cell by `maxCellChars` and the whole result by `maxResultBytes`. */
  query(id: string, sql: string, options?: QueryOptions): Promise<QueryResult>;
  /**
   * One cell of a statement's result read whole (up to WHOLE_VALUE_MAX), for "copy" and "save"
   * of a value the result cut. The statement runs again, with the same gates and time limit.
   */
  wholeValue(id: string, sql: string, at: CellAddress): Promise<WholeValue>;
  /** Tables and views, within a time budget: what the budget left unread is listed as `skipped`. */
  introspect(id: string, options?: SchemaRequest): Promise<Schema>;
  columnStats(id: string, table: string, column: string, options?: StatsOptions): Promise<ColumnStats>;
  /** Builds (or rebuilds) the retrieval indexes of one database; progress per stage. */
  buildTools(id: string, options?: ToolsOptions, onProgress?: (p: ToolboxProgress) => void): Promise<ToolsSummary>;
  /**
   * Waits for the indexes of `id` being built and kept for the next opening (a build under way
   * whose result is kept, then its checksum and its write) and says what became of them: what a
   * one-shot CLI run waits for before it exits (issue 35, item 16). At once when nothing is under way.
   */
  finishKeeping(id: string, onProgress?: (p: KeepProgress) => void): Promise<KeptState>;
  /** Runs one retrieval tool (building the indexes first if needed). Bad input is an outcome, not an exception. */
  callTool(id: string, name: string, args: unknown, extras?: ToolCallExtras): Promise<ToolCallOutcome>;
  /**
   * Replaces the column descriptions of the built indexes (building them first if needed):
   * only the column index and its sentences are remade, not statistics, values or keys. Later
   * builds of this database use these descriptions too.
   */
  setDescriptions(id: string, descriptions: ColumnDescriptions): Promise<ToolsSummary>;
  /** With `waitMs`: if the indexes are not ready by then, links by names alone (no value links). */
  linkQuestion(id: string, question: string, options?: WaitOptions): Promise<QuestionLink[]>;
  /**
   * A database made from table files, as the bytes of a SQLite file (issue 26: keep the import).
   * Refused for a database opened from a SQLite file: the person has that file already.
   */
  exportImported(id: string): Promise<Uint8Array>;
  /** Column statistics and inferred keys for a grounded prompt (building the indexes first if needed). */
  /**
   * With `waitMs`: if the indexes are not ready by then, statistics of each table's first rows
   * (`sampledRows`) while the build goes on (issue 26: ask while indexing).
   */
  grounding(id: string, options?: WaitOptions): Promise<Grounding>;
  /**
   * Bytes of memory SQLite's heap holds now, 0 where nobody measures it (a WebAssembly heap never
   * shrinks, so a transport may replace a worker whose heap grew too far).
   */
  heapBytes(): Promise<number>;
}
