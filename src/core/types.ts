// Domain types shared by the browser, the worker and the CLI. Plain data only:
// everything here must survive structured clone (postMessage) unchanged.

import type { DialectId } from './dialect/types';
import type { ImportedFile } from './import/imported-file';

/**
 * A value as SQLite stores it. Integers are numbers while exact (|n| <= 2^53 - 1) and bigints
 * beyond, so 64-bit ids keep every digit.
 */
export type SqlValue = number | bigint | string | Uint8Array | null;

/** SQLite storage classes, as reported by `typeof()`. */
export type StorageClass = 'integer' | 'real' | 'text' | 'blob' | 'null';

export interface QueryResult {
  columns: string[];
  /** Storage classes seen per column among the returned rows (empty set = only NULLs). */
  columnTypes: StorageClass[][];
  rows: SqlValue[][];
  /** True when the statement had more rows than `maxRows` (after `offset`). */
  truncated: boolean;
  /** Rows skipped before the first returned row ("fetch more"). */
  offset: number;
  elapsedMs: number;
  /** Cells cut at `maxCellChars` (or less, once the result neared `maxResultBytes`), with their full length. */
  cut?: CutCell[];
  /** Set when rows stopped because the result reached this many bytes (`truncated` is true then). */
  byteLimit?: number;
  /**
   * What each column holds by its declared type, where the engine types columns (a server,
   * issue 36): a `number` column may carry text that keeps every digit (PostgreSQL's numeric).
   */
  columnKinds?: ColumnKind[];
}

export type ColumnKind = 'number' | 'boolean' | 'text' | 'bytes' | 'other';

/** A value the result holds only the start of. */
export interface CutCell {
  /** Index in `rows`. */
  row: number;
  column: number;
  /** Full length: characters of text, bytes of a blob. */
  length: number;
}

export interface QueryOptions {
  /** Cap on returned rows; the statement stops stepping after this many (+1 to detect more). */
  maxRows?: number;
  /** Rows to skip first (used to fetch the next page of a result). */
  offset?: number;
  params?: SqlValue[];
  /** Longest text (characters) or blob (bytes) a cell carries; longer ones are cut and listed in `cut`. */
  maxCellChars?: number;
  /** Bound on the whole result's size in memory (text counts two bytes a character); rows stop there. */
  maxResultBytes?: number;
}

export type Affinity = 'INTEGER' | 'TEXT' | 'BLOB' | 'REAL' | 'NUMERIC';

export interface ColumnInfo {
  name: string;
  /** Declared type as written in CREATE TABLE ('' when none). */
  declaredType: string;
  affinity: Affinity;
  notNull: boolean;
  /** Default expression as SQL text, or null. */
  defaultValue: string | null;
  /** 1-based position in the primary key, 0 when not part of it. */
  pkIndex: number;
  hidden: boolean;
  /** The database's own description of it (PostgreSQL's `COMMENT ON COLUMN`). */
  comment?: string;
  /**
   * What the column's declared type lets it hold, where the engine enforces types (a server,
   * issue 36): its values are indexed only when `text`; SQLite columns have none (any may hold text).
   */
  typeClass?: 'number' | 'text' | 'date' | 'boolean' | 'bytes' | 'other';
  /**
   * The database searches this column's text itself, fast: PostgreSQL's trigram index (pg_trgm,
   * GIN or GiST on the plain column). SearchValue then asks the server and holds none of its values.
   */
  textIndex?: TextIndex;
}

/** How a database searches a column's text by itself (ColumnInfo.textIndex). */
export type TextIndex = 'trigram';

/** `{table}.{from} -> {refTable}.{to}`; one entry per column pair of a (possibly composite) key. */
export interface ForeignKey {
  /** Id from PRAGMA foreign_key_list: pairs with the same id form one composite key. */
  id: number;
  table: string;
  from: string[];
  refTable: string;
  /** Referenced columns; when the declaration omits them, the referenced table's primary key. */
  to: string[];
  onUpdate: string;
  onDelete: string;
}

export interface IndexInfo {
  name: string;
  unique: boolean;
  /** 'c' CREATE INDEX, 'u' UNIQUE constraint, 'pk' primary key. */
  origin: string;
  columns: string[];
  partial: boolean;
}

export interface TableInfo {
  name: string;
  kind: 'table' | 'view' | 'virtual';
  sql: string | null;
  columns: ColumnInfo[];
  primaryKey: string[];
  withoutRowid: boolean;
  foreignKeys: ForeignKey[];
  indexes: IndexInfo[];
  /** null when it could not be counted (e.g. a view that fails, or a virtual table). */
  rowCount: number | null;
  /** `rowCount` is estimated from the rowid range, not counted (very large files read in place). */
  rowCountEstimated?: true;
  /** Why the table cannot be read, e.g. a virtual table whose module sql.js lacks. */
  error?: string;
  /**
   * Listed by name only: the introspection time budget ran out before its columns, keys, indexes
   * and row count were read (they are empty and null). Reading it alone fills them in.
   */
  skipped?: true;
  /** The database's own description of it (PostgreSQL's `COMMENT ON TABLE`). */
  comment?: string;
}

export interface Schema {
  /** The engine the database is on (absent: SQLite): prompts and generated SQL follow it. */
  dialect?: DialectId;
  tables: TableInfo[];
  /** Foreign keys of all tables, for graph work. */
  foreignKeys: ForeignKey[];
  /** Set when objects were skipped: how many, and the time budget that ran out (ms). */
  incomplete?: { skipped: number; budgetMs: number };
}

export interface CategoryCount {
  value: SqlValue;
  count: number;
}

export interface ColumnStats {
  table: string;
  column: string;
  /** Rows looked at; less than the table's row count when `approximate`. */
  rowsScanned: number;
  approximate: boolean;
  nullCount: number;
  distinctCount: number;
  /** Storage classes present with their counts (a column can mix them). */
  storageClasses: Partial<Record<StorageClass, number>>;
  min: SqlValue;
  max: SqlValue;
  /** A few example values (text and blob columns). */
  samples: SqlValue[];
  /** All values with counts when the column has few distinct values. */
  categories: CategoryCount[] | null;
  /** Average text length in characters, for text columns. */
  avgLength: number | null;
  /** The column looks like dates (ISO-8601 text or similar). */
  looksLikeDate: boolean;
}

export type OpenIssueLevel = 'info' | 'warning' | 'error';

export interface OpenIssue {
  level: OpenIssueLevel;
  code: string;
  message: string;
}

/** What opening a file found out; `issues` are shown to the user next to the database name. */
export interface OpenReport {
  id: string;
  name: string;
  sizeBytes: number;
  sqliteVersion: string;
  pageSize: number;
  pageCount: number;
  quickCheck: string[];
  issues: OpenIssue[];
  openMs: number;
  /** Read from a private copy in memory, or from the file itself as needed (issue 26). */
  readFrom?: 'memory' | 'file';
  /** Made from CSV, TSV or JSON files (issue 26): it can be saved as a SQLite file. */
  imported?: true;
  /** Of an import: how each file was read (its first row, its encoding; issue 35). */
  imports?: ImportedFile[];
  /** A database on a server (issue 36): which one, and what the role connected as could do. */
  server?: ServerReport;
  /** Reached through `dowser serve` at this origin (issue 36): the page, not the engine, sets it. */
  served?: { origin: string };
}

export interface ServerReport {
  dialect: DialectId;
  /** `user@host:port/database`, never with a password. */
  target: string;
  /** The server's version string (`SHOW server_version`). */
  version: string;
  /** The schemas read, in search-path order. */
  schemas: string[];
  superuser: boolean;
  /** The role may change rows or tables of these schemas (Dowser still only reads). */
  canWrite: boolean;
  /** pg_trgm is installed in the database (value search through its trigram indexes). */
  trigrams: boolean;
}
