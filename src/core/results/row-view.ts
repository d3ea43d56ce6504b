// Sorting and filtering the rows a result holds (issue 24): pure, so the grid, the Ask tab's
// answer and the benchmark share one definition. The view is a list of row indices into the
// result; the rows themselves are never copied or changed.

import type { SqlValue } from '../types';

export type SortDirection = 'asc' | 'desc';
export interface SortBy {
  column: number;
  direction: SortDirection;
}

/** A column's filter: its text contains a string (any case), or its number lies in a range. */
export type ColumnFilter =
  | { kind: 'text'; contains: string }
  /** `exclusive`: the bounds themselves are left out (typed as `>` or `<`). */
  | { kind: 'range'; min?: number; max?: number; exclusive?: boolean };

export interface RowViewOptions {
  sort?: SortBy | null;
  /** By column index. */
  filters?: ReadonlyMap<number, ColumnFilter>;
  /** Text any column of the row contains (any case). */
  quick?: string;
}

/** The order SQLite gives storage classes (numbers, text, blobs); NULLs go last either way. */
const rankOf = (v: SqlValue): number =>
  typeof v === 'number' || typeof v === 'bigint' ? 0 : typeof v === 'string' ? 1 : v === null ? 3 : 2;

/** Ascending comparison: numbers by value, text as people read it (any case, digits as numbers), blobs by bytes. */
export function compareValues(a: SqlValue, b: SqlValue): number {
  const ra = rankOf(a);
  const rb = rankOf(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return a! < b! ? -1 : a! > b! ? 1 : 0;
  if (ra === 1) {
    const [ka, kb] = [textKey(a as string), textKey(b as string)];
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  }
  if (ra === 2) return compareBytes(a as Uint8Array, b as Uint8Array);
  return 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** The text a filter reads: what the grid shows (blobs are not searched). */
function textOf(v: SqlValue): string | null {
  if (v === null || v instanceof Uint8Array) return null;
  return String(v);
}

/** A number from a cell: numbers as stored, and text that is a plain number (SQLite files hold many). */
export function numberOf(v: SqlValue): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function matches(v: SqlValue, f: ColumnFilter): boolean {
  if (f.kind === 'text') {
    if (f.contains === '') return true;
    const t = textOf(v);
    return t !== null && t.toLowerCase().includes(f.contains.toLowerCase());
  }
  if (f.min === undefined && f.max === undefined) return true;
  const n = numberOf(v);
  if (n === null) return false;
  if (f.exclusive) return (f.min === undefined || n > f.min) && (f.max === undefined || n < f.max);
  return (f.min === undefined || n >= f.min) && (f.max === undefined || n <= f.max);
}

/** Whether a view changes anything (no sort, no filter, no quick text: the rows as they came). */
export function isPlainView(options: RowViewOptions): boolean {
  return !options.sort && !(options.quick ?? '').trim() && ![...(options.filters?.values() ?? [])].some(isActive);
}

export function isActive(f: ColumnFilter): boolean {
  return f.kind === 'text' ? f.contains !== '' : f.min !== undefined || f.max !== undefined;
}

/**
 * Indices of the rows to show, in order: filtered (every column filter and the quick text), then
 * sorted stably (equal values keep the result's order; NULLs last in both directions).
 */
export function rowView(rows: readonly SqlValue[][], options: RowViewOptions): number[] {
  return createRowView(rows).view(options);
}

/**
 * A result's rows with what sorting and filtering them needs, worked out once per column on first
 * use (sort keys, lower-case text), so each later sort or filter of the same rows is quick.
 */
export function createRowView(rows: readonly SqlValue[][]) {
  const ranks = new Map<number, ColumnRanks>();
  const ranksOf = (c: number) => {
    let r = ranks.get(c);
    if (!r) ranks.set(c, (r = rankColumn(columnValues(rows, c))));
    return r;
  };

  return {
    view(options: RowViewOptions): number[] {
      const filters = [...(options.filters?.entries() ?? [])].filter(([, f]) => isActive(f));
      const quick = (options.quick ?? '').trim();
      // A case-blind pattern over the values as they are: lower-casing every cell first cost
      // 130–165 ms at 100,000 rows of 7 columns, the pattern 40–90 ms each time (decision 062).
      const pattern = quick ? new RegExp(quick.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu') : null;
      const kept: number[] = [];
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        if (filters.some(([c, f]) => !matches(row[c], f))) continue;
        if (pattern && !row.some((v) => v !== null && !(v instanceof Uint8Array) && pattern.test(String(v)))) continue;
        kept.push(i);
      }
      const sort = options.sort;
      if (!sort) return kept;
      return sortIndices(kept, ranksOf(sort.column), sort.direction, rows.length);
    },
    /** Whether a sort by this column would first have to rank its values (the costly part). */
    hasRanks: (column: number) => ranks.has(column),
    /** Ranks worked out elsewhere (a worker, for large results) from `columnValues(rows, column)`. */
    addRanks(column: number, columnRanks: ColumnRanks) {
      if (columnRanks.order.length !== rows.length) throw new Error('The ranks are for other rows.');
      ranks.set(column, columnRanks);
    },
  };
}

export type RowView = ReturnType<typeof createRowView>;

/** One column's values, in row order: what `rankColumn` reads. */
export const columnValues = (rows: readonly SqlValue[][], column: number): SqlValue[] => rows.map((r) => r[column]);

/**
 * Rows past this many get a column's first sort worked out off the page's thread: ranking 100,000
 * values takes 85–360 ms (decision 062), every later sort 20–36 ms.
 */
export const RANK_OFF_THREAD_ROWS = 20_000;

const NULL_RANK = 3;

/**
 * Sorts row indices by one column's ranks (worked out once per column by `rankColumn`): rank and
 * index are packed into one number and sorted natively, without a call per comparison, either
 * direction, any filter (decision 062). NULLs go last.
 */
function sortIndices(kept: number[], ranks: ColumnRanks, direction: SortDirection, rowCount: number) {
  const { order, top } = ranks;
  const scale = 2 ** Math.ceil(Math.log2(rowCount + 1));
  const packed = new Float64Array(kept.length);
  let present = 0;
  const nulls: number[] = [];
  for (const i of kept) {
    const r = order[i];
    if (r < 0) nulls.push(i);
    else packed[present++] = (direction === 'asc' ? r : top - r) * scale + i;
  }
  const sorted = packed.subarray(0, present).sort();
  const out = new Array<number>(present + nulls.length);
  for (let k = 0; k < present; k++) out[k] = sorted[k] % scale;
  for (let k = 0; k < nulls.length; k++) out[present + k] = nulls[k];
  return out;
}

export interface ColumnRanks {
  /** Dense rank of each row's value (equal values share one), -1 for NULL. */
  order: Int32Array;
  top: number;
}

/** Ranks a column's values in ascending order: numbers, then text, then blobs; NULL as -1. */
export function rankColumn(values: readonly SqlValue[]): ColumnRanks {
  return rankValues(sortKeysOf(values), values);
}

function rankValues(keys: SortKeys, values: readonly SqlValue[]): ColumnRanks {
  const { rank, number: num, text } = keys;
  const present: number[] = [];
  for (let i = 0; i < values.length; i++) if (rank[i] !== NULL_RANK) present.push(i);
  const kinds = new Set(present.map((i) => rank[i]));
  const only = kinds.size === 1 ? rank[present[0]] : -1;
  let ascending: (i: number, j: number) => number;
  if (only === 0 && !keys.bigints) ascending = (i, j) => num[i] - num[j];
  else if (only === 1) ascending = (i, j) => (text[i]! < text[j]! ? -1 : text[i]! > text[j]! ? 1 : 0);
  else
    ascending = (i, j) => {
      if (rank[i] !== rank[j]) return rank[i] - rank[j];
      if (rank[i] === 0) {
        const d = num[i] - num[j];
        // Big integers past 2^53 can share a key: compare them exactly.
        return d === 0 && keys.bigints ? compareValues(values[i], values[j]) : d;
      }
      if (rank[i] === 1) return text[i]! < text[j]! ? -1 : text[i]! > text[j]! ? 1 : 0;
      return compareBytes(values[i] as Uint8Array, values[j] as Uint8Array);
    };
  present.sort(ascending);
  const order = new Int32Array(values.length).fill(-1);
  let r = -1;
  for (let k = 0; k < present.length; k++) {
    if (k === 0 || ascending(present[k - 1], present[k]) !== 0) r++;
    order[present[k]] = r;
  }
  return { order, top: r };
}

interface SortKeys {
  bigints: boolean;
  rank: Uint8Array;
  number: Float64Array;
  text: Array<string | undefined>;
}

/**
 * Keys compared with plain operators: Intl.Collator's compare costs about 0.4 µs a call, too slow
 * for 100,000 rows (decision 062). Text becomes lower case with digit runs padded, so "item 9"
 * sorts before "item 10" and "b" before "C".
 */
function sortKeysOf(values: readonly SqlValue[]): SortKeys {
  const rank = new Uint8Array(values.length);
  const number = new Float64Array(values.length);
  const text: Array<string | undefined> = new Array(values.length);
  let bigints = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    rank[i] = rankOf(v);
    if (typeof v === 'number') number[i] = v;
    else if (typeof v === 'bigint') {
      number[i] = Number(v);
      bigints = true;
    } else if (typeof v === 'string') text[i] = textKey(v);
  }
  return { bigints, rank, number, text };
}

const DIGITS = /\d+/g;
export function textKey(v: string): string {
  const lower = v.toLowerCase();
  return /\d/.test(lower) ? lower.replace(DIGITS, (d) => (d.length >= 16 ? d : d.padStart(16, '0'))) : lower;
}

const RANGE = /^(-?\d+(?:\.\d+)?)?\s*\.\.\s*(-?\d+(?:\.\d+)?)?$/;
const COMPARISON = /^(>=|<=|>|<|=)\s*(-?\d+(?:\.\d+)?)$/;

/**
 * What a person types in a column's filter box: `>5`, `<=10`, `=3` or `5..10` (either end may
 * be left out) is a number range; anything else is text the column contains.
 */
export function parseColumnFilter(input: string): ColumnFilter {
  const text = input.trim();
  const range = RANGE.exec(text);
  if (range && (range[1] !== undefined || range[2] !== undefined))
    return {
      kind: 'range',
      ...(range[1] !== undefined ? { min: Number(range[1]) } : {}),
      ...(range[2] !== undefined ? { max: Number(range[2]) } : {}),
    };
  const comparison = COMPARISON.exec(text);
  if (comparison) {
    const n = Number(comparison[2]);
    const op = comparison[1];
    if (op === '=') return { kind: 'range', min: n, max: n };
    if (op === '>=') return { kind: 'range', min: n };
    if (op === '<=') return { kind: 'range', max: n };
    if (op === '>') return { kind: 'range', min: n, exclusive: true };
    return { kind: 'range', max: n, exclusive: true };
  }
  return { kind: 'text', contains: input };
}

/** The next sort after a click on a column's header: ascending, descending, then none. */
export function nextSort(current: SortBy | null | undefined, column: number): SortBy | null {
  if (!current || current.column !== column) return { column, direction: 'asc' };
  return current.direction === 'asc' ? { column, direction: 'desc' } : null;
}
