// Reads every text value of a database once, for SearchValue's index (value-index.ts).
//
// Each table is read once, all its text columns in the same statement, in pages of rowid ranges
// (`WHERE rowid > ? ORDER BY rowid LIMIT n`, a seek on the table's b-tree), so memory stays
// bounded and progress can be reported. Every row of every text column is read: which values
// are indexed is decided value by value over the whole column, never from its first rows.
// The cells go to a ValueSink (the index builder), which keeps short values with their counts
// and indexes long texts by rowid (value-index.ts).

import { eventYielder } from '../yield';
import { DowserError } from '../errors';
import { CELL_REAL, CELL_INTEGER, CELL_NULL, CELL_TEXT, type ScanRow, type SqlExecutor } from '../executor';
import { quoteIdent } from '../sql/quote';
import type { ColumnInfo, QueryResult, Schema, SqlValue, TableInfo, TextIndex } from '../types';

export interface ExtractOptions {
  /** Rows per statement. */
  pageSize?: number;
  /**
   * Text cells the read may keep, the index's memory budget (issue 26): above it, each table
   * keeps new values from its first rows, as many as its share of the budget (valueRowLimits),
   * and only counts the values it already holds in the rest.
   */
  cellBudget?: number;
  onProgress?(done: number, total: number): void;
  signal?: AbortSignal;
}

/** Where the cells of one column go. */
export interface ColumnSink {
  /** One text cell; `rowid` is null when the table has no usable rowid. */
  add(value: string, rowid: number | null): void;
  /**
   * One text cell as UTF-8 bytes, `bytes[start, start + length)`, valid only during the call
   * (an executor that scans in place, decision 015). Sinks without it get `add` with the text.
   */
  addBytes?(bytes: Uint8Array, start: number, length: number, rowid: number | null): void;
  /** One cell that is not text (NULL, a number, a blob): counted for the column's statistics. */
  other(value: SqlValue): void;
  /**
   * The table's share of the budget is read: from here on, count the values already held and
   * keep no new ones (valueRowLimits).
   */
  budgetSpent?(): void;
  /**
   * The database searches this column itself (`ColumnInfo.textIndex`): none of its cells come,
   * and `done` gives the table's row count.
   */
  searchedByEngine?(how: TextIndex): void;
  /** The column was read to the end (`rows` rows). */
  done(rows: number): void;
}

/** Where the cells of one numeric column go (only where the executor scans: it tells integers from reals). */
export interface NumberSink {
  addNumber(value: number, integer: boolean): void;
  addNull(): void;
  /** A cell of another class (text, blob). */
  addOther(): void;
  done(rows: number): void;
}

export interface ValueSink {
  column(table: TableInfo, column: ColumnInfo, hasRowid: boolean): ColumnSink;
  /**
   * A sink for a column that holds no text (INTEGER or REAL affinity), read in the same pass for
   * its statistics; without it only the text columns are read.
   */
  numbers?(table: TableInfo, column: ColumnInfo): NumberSink;
}

const DEFAULT_PAGE_SIZE = 10_000;

/**
 * Columns that may hold text: TEXT affinity, or NUMERIC/BLOB affinity (no declared type, DATE,
 * BOOLEAN, …), where SQLite keeps text as text. INTEGER and REAL affinity turn numeric-looking
 * text into numbers, and what stays text there is rare enough to leave to execute_sql. Values
 * that are not strings are skipped during the scan.
 */
export function mayHoldText(c: ColumnInfo): boolean {
  return c.affinity === 'TEXT' || c.affinity === 'NUMERIC' || c.affinity === 'BLOB';
}

/** Tables whose values are read: not views (they repeat their tables), not unreadable ones. */
export function valueTables(schema: Schema): TableInfo[] {
  return schema.tables.filter((t) => t.kind !== 'view' && !t.error && t.columns.some(mayHoldText));
}

/** The index's memory budget by default: about 0.7 GB of index for text cells of usual length (decision 064). */
export const DEFAULT_VALUE_CELL_BUDGET = 16_000_000;
/**
 * Text cells the value index holds on a server by default: half a file's (decision 076). On 10
 * million rows the file's 16 M took dowser to 601 MB, 8 M to 395 MB (the target is < 500 MB)
 * with the same search latency; a server searches what is left out itself (pg_trgm, SQL).
 */
export const SERVER_VALUE_CELL_BUDGET = DEFAULT_VALUE_CELL_BUDGET / 2;

/**
 * A budget as a person writes it (the CLI's DOWSER_INDEX_CELLS): a number of cells, or `none`
 * for no limit; unset is the default. Anything else is refused with a reason.
 */
export function parseCellBudget(value: string | undefined): { budget?: number | null; problem?: string } {
  if (value === undefined || value === '') return {};
  if (value === 'none') return { budget: null };
  const n = Number(value.replace(/_/g, ''));
  if (/^[\d_]+$/.test(value) && Number.isSafeInteger(n) && n > 0) return { budget: n };
  return { problem: `DOWSER_INDEX_CELLS must be a number of text cells above 0, or none, not "${value}"` };
}

/**
 * Rows of each table whose new values are kept under a budget of `cellBudget` text cells: every
 * row when the whole database fits; else each table its share, in proportion to its cells (rows
 * × text columns), so a huge table does not leave the others without values. Tables missing from
 * the map keep every value. The rows after a table's share are still read, for counts only.
 */
export function valueRowLimits(tables: readonly TableInfo[], cellBudget: number): Map<string, number> {
  // A column the database searches itself takes nothing from the budget: it is not held.
  const cells = (t: TableInfo) => (t.rowCount ?? 0) * t.columns.filter((c) => mayHoldText(c) && !c.textIndex).length;
  const total = tables.reduce((n, t) => n + cells(t), 0);
  const limits = new Map<string, number>();
  if (total <= cellBudget) return limits;
  const share = cellBudget / total;
  for (const t of tables) if (t.rowCount) limits.set(t.name, Math.max(1, Math.floor(t.rowCount * share)));
  return limits;
}

export async function extractValues(
  exec: SqlExecutor,
  schema: Schema,
  sink: ValueSink,
  options: ExtractOptions = {},
): Promise<void> {
  const pageSize = Math.max(1, options.pageSize ?? DEFAULT_PAGE_SIZE);
  const tables = valueTables(schema);
  const limits = valueRowLimits(tables, options.cellBudget ?? Infinity);
  const total = tables.reduce((n, t) => n + (t.rowCount ?? 0), 0);
  let done = 0;
  options.onProgress?.(0, total);
  for (const table of tables) {
    const before = done;
    try {
      await scanTable({
        exec,
        table,
        sink,
        pageSize,
        onRows: (rows) => {
          done += rows;
          options.onProgress?.(Math.min(done, total), total);
        },
        signal: options.signal,
        keepRows: limits.get(table.name),
      });
    } catch (e) {
      if (e instanceof DowserError && e.code === 'cancelled') throw e;
      // A table SQLite cannot read (a virtual table whose module is missing, a damaged page)
      // has no searchable values; the rest of the database still does.
    }
    done = before + (table.rowCount ?? 0);
    options.onProgress?.(Math.min(done, total), total);
  }
  options.onProgress?.(total, total);
}

interface ScanTableOptions {
  exec: SqlExecutor;
  table: TableInfo;
  sink: ValueSink;
  pageSize: number;
  onRows: (rows: number) => void;
  signal?: AbortSignal;
  /** Rows (rowid order) whose new values are kept: the table's share of the budget (default: all). */
  keepRows?: number;
}

/** Reads the table's text columns once, page by page. */
async function scanTable({
  exec,
  table,
  sink,
  pageSize,
  onRows,
  signal,
  keepRows = Infinity,
}: ScanTableOptions): Promise<void> {
  if (exec.stream) return streamTable({ exec, table, sink, pageSize, onRows, signal, keepRows });
  const rowid = rowidName(table);
  const columns = table.columns.filter(mayHoldText);
  // Other calls to the engine (a question's schema and sampled values) run between pages.
  const pause = eventYielder();
  const sinks = columns.map((c) => sink.column(table, c, rowid !== null));
  // A page ends where the table's share of the budget does; there the sinks stop keeping values.
  let spent = false;
  const budgetPage = (rowsRead: number): number => {
    if (!spent && rowsRead >= keepRows) {
      spent = true;
      for (const s of sinks) s.budgetSpent?.();
    }
    return spent ? pageSize : Math.min(pageSize, keepRows - rowsRead);
  };
  const t = quoteIdent(table.name);
  let lastRowid: SqlValue = null;
  let rowsRead = 0;
  if (exec.scan) {
    const scan = exec.scan.bind(exec);
    // The numeric columns come along for their statistics: the rows are being read anyway.
    const numeric = sink.numbers
      ? table.columns.filter((c) => !mayHoldText(c) && !(rowid && looksLikeRowid(table, c)))
      : [];
    const numberSinks = numeric.map((c) => sink.numbers!(table, c));
    const cols = [...columns, ...numeric].map((c) => quoteIdent(c.name)).join(', ');
    const firstNumber = (rowid ? 1 : 0) + sinks.length;
    const decoder = new TextDecoder();
    const first = rowid ? 1 : 0;
    let last: SqlValue = null;
    const visit = (row: ScanRow) => {
      // Rowids past 2^53 are read as text (exact) for paging, and kept as values, not fetched back.
      let id: number | null = null;
      if (rowid) {
        const n = row.number(0);
        if (Number.isSafeInteger(n)) last = id = n;
        else last = row.string(0);
      }
      for (let j = 0; j < sinks.length; j++) {
        const type = row.type(first + j);
        const sink = sinks[j];
        if (type !== CELL_TEXT) sink.other(type === CELL_NULL ? null : type);
        else {
          const start = row.textStart(first + j);
          const length = row.textLength(first + j);
          const bytes = row.heap();
          if (sink.addBytes) sink.addBytes(bytes, start, length, id);
          else sink.add(decoder.decode(bytes.subarray(start, start + length)), id);
        }
      }
      for (let j = 0; j < numberSinks.length; j++) {
        const k = firstNumber + j;
        const type = row.type(k);
        const sink = numberSinks[j];
        if (type === CELL_INTEGER) sink.addNumber(row.number(k), true);
        else if (type === CELL_REAL) sink.addNumber(row.number(k), false);
        else if (type === CELL_NULL) sink.addNull();
        else sink.addOther();
      }
    };
    for (;;) {
      if (signal?.aborted) throw new DowserError('cancelled', 'Reading the values was cancelled.');
      const size = budgetPage(rowsRead);
      const n = rowid
        ? await scan(
            `SELECT ${rowid}, ${cols} FROM ${t}${last === null ? '' : ` WHERE ${rowid} > ?`} ORDER BY ${rowid} LIMIT ${size}`,
            last === null ? [] : [last],
            visit,
          )
        : await scan(`SELECT ${cols} FROM ${t} LIMIT ${size} OFFSET ${rowsRead}`, [], visit);
      rowsRead += n;
      onRows(n);
      if (n < size) break;
      await pause();
    }
    for (const s of sinks) s.done(rowsRead);
    for (const s of numberSinks) s.done(rowsRead);
    return;
  }
  const cols = columns.map((c) => quoteIdent(c.name)).join(', ');
  for (;;) {
    if (signal?.aborted) throw new DowserError('cancelled', 'Reading the values was cancelled.');
    const size = budgetPage(rowsRead);
    const page: QueryResult = rowid
      ? await exec.query(
          `SELECT ${rowid}, ${cols} FROM ${t}${lastRowid === null ? '' : ` WHERE ${rowid} > ?`} ORDER BY ${rowid} LIMIT ${size}`,
          { maxRows: size, params: lastRowid === null ? [] : [lastRowid] },
        )
      : // WITHOUT ROWID and virtual tables: plain paging (each page re-walks the skipped rows).
        await exec.query(`SELECT ${cols} FROM ${t} LIMIT ${size} OFFSET ${rowsRead}`, { maxRows: size });
    const first = rowid ? 1 : 0;
    for (const row of page.rows) {
      // A rowid beyond 2^53 comes as a bigint: such rows are kept as values, not fetched back.
      const id = rowid && typeof row[0] === 'number' ? row[0] : null;
      for (let j = 0; j < sinks.length; j++) {
        const v = row[first + j];
        if (typeof v === 'string') sinks[j].add(v, id);
        else sinks[j].other(v);
      }
    }
    const n = page.rows.length;
    rowsRead += n;
    onRows(n);
    if (isLastPage(page, size)) break;
    if (rowid) lastRowid = page.rows[n - 1][0];
    await pause();
  }
  for (const s of sinks) s.done(rowsRead);
}

/**
 * A server's table read in one statement through its cursor (issue 36): no rowid to page by and
 * none needed. Text cells go to the value sinks, numeric columns to the number sinks (their
 * statistics come from this read, exact); long texts are kept as values (there is no rowid to
 * fetch them back by). The budget's share is counted in rows as on SQLite.
 */
async function streamTable({
  exec,
  table,
  sink,
  pageSize,
  onRows,
  signal,
  keepRows = Infinity,
}: ScanTableOptions): Promise<void> {
  // Typed columns: the text ones are indexed, the numbers counted; dates, booleans and the rest are
  // left to the engine's statistics (a column without a type class is read as on SQLite).
  const text = table.columns.filter((c) => (c.typeClass ? c.typeClass === 'text' : mayHoldText(c)));
  const numeric = sink.numbers
    ? table.columns.filter((c) => (c.typeClass ? c.typeClass === 'number' : !mayHoldText(c)))
    : [];
  const columns: ColumnInfo[] = [];
  const sinks: ColumnSink[] = [];
  for (const c of text) {
    const s = sink.column(table, c, false);
    // A column with the server's own text index is searched there (search_value): not read.
    if (c.textIndex && s.searchedByEngine) {
      s.searchedByEngine(c.textIndex);
      s.done(table.rowCount ?? 0);
    } else {
      columns.push(c);
      sinks.push(s);
    }
  }
  if (!columns.length && !numeric.length) return;
  const numberSinks = numeric.map((c) => sink.numbers!(table, c));
  // A typed column (a server's) stores one class: a double precision 12 is a real, not an integer
  // beside reals ("mixed storage" is SQLite's, and a note about it would mislead on a server).
  const integerOf = numeric.map((c) =>
    c.typeClass ? (v: number) => c.affinity === 'INTEGER' && Number.isInteger(v) : Number.isInteger,
  );
  const cols = [...columns, ...numeric].map((c) => quoteIdent(c.name)).join(', ');
  let rows = 0;
  let told = 0;
  const read = await exec.stream!(`SELECT ${cols} FROM ${quoteIdent(table.name)}`, (row) => {
    if (signal?.aborted) return false;
    if (rows === keepRows) for (const s of sinks) s.budgetSpent?.();
    for (let j = 0; j < sinks.length; j++) {
      const v = row[j];
      if (typeof v === 'string') sinks[j].add(v, null);
      else sinks[j].other(v);
    }
    for (let j = 0; j < numberSinks.length; j++) {
      const v = row[sinks.length + j];
      const s = numberSinks[j];
      if (typeof v === 'number') s.addNumber(v, integerOf[j](v));
      else if (v === null) s.addNull();
      else s.addOther();
    }
    if (++rows - told >= pageSize) {
      onRows(rows - told);
      told = rows;
    }
  });
  if (signal?.aborted) throw new DowserError('cancelled', 'Reading the values was cancelled.');
  onRows(read - told);
  for (const s of sinks) s.done(read);
  for (const s of numberSinks) s.done(read);
}

/**
 * The page asked for `pageSize` rows ends its table. Fewer rows than asked is the end only when
 * the page did not stop at the result's byte budget (wide rows of long texts): the rows after it
 * must still be read.
 */
export function isLastPage(page: QueryResult, pageSize: number): boolean {
  return page.rows.length === 0 || (page.rows.length < pageSize && !page.truncated);
}

/**
 * An INTEGER PRIMARY KEY: the rowid under another name, whose statistics come from the b-tree's
 * ends (core/schema/stats.ts), so the read skips it. (The rare `INTEGER PRIMARY KEY DESC` looks
 * the same here and gets SQL statistics.)
 */
function looksLikeRowid(table: TableInfo, column: ColumnInfo): boolean {
  return (
    column.pkIndex === 1 && column.declaredType.toUpperCase() === 'INTEGER' && !table.columns.some((c) => c.pkIndex > 1)
  );
}

/** A name that reaches the rowid, unless the table has none or columns hide all three names. */
export function rowidName(table: TableInfo): string | null {
  if (table.kind !== 'table' || table.withoutRowid) return null;
  const taken = new Set(table.columns.map((c) => c.name.toLowerCase()));
  return ['rowid', '_rowid_', 'oid'].find((n) => !taken.has(n)) ?? null;
}
