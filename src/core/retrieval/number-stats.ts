// Statistics of a numeric column (INTEGER or REAL affinity) from the value read's one pass over
// its table (distinct-values.ts reads these columns beside the text ones): every row, exact,
// instead of an SQL aggregate over the first rows (core/schema/stats.ts), which stays the
// fallback for the columns this cannot describe.
//
// It gives up (no statistics, SQL decides) on a column holding text or blobs, an integer beyond
// 2^53 (not exact as a number), or more distinct values than DISTINCT_CAP (the set would cost
// more memory than the statistic is worth: SQL's estimate serves).

import type { CategoryCount, ColumnStats } from '../types';
import type { NumberSink } from './distinct-values';

/** Distinct values tracked exactly per column; past it the column's statistics come from SQL. */
export const DISTINCT_CAP = 1 << 17;
/** As core/schema/stats.ts: categories are listed up to this many distinct values. */
const MAX_CATEGORIES = 20;

const bits = new Float64Array(1);
const halves = new Uint32Array(bits.buffer);

function hashNumber(v: number): number {
  bits[0] = v;
  return Math.imul(halves[0] ^ Math.imul(halves[1], 0x9e3779b1), 0x85ebca6b) >>> 0;
}

export class NumberColumnStats implements NumberSink {
  private rows: number | null = null;
  private integers = 0;
  private reals = 0;
  private nulls = 0;
  private min = Infinity;
  private max = -Infinity;
  /** The distinct values so far, open addressing (NaN: empty; SQLite stores no NaN). */
  private slots: Float64Array | null = new Float64Array(1024).fill(NaN);
  private distinct = 0;
  /** The distinct values and their rows while there are at most MAX_CATEGORIES of them. */
  private categories: number[] | null = [];
  private categoryRows: number[] = [];
  private failed = false;

  constructor(
    readonly table: string,
    readonly column: string,
  ) {}

  /** One NULL cell. */
  addNull(): void {
    this.nulls++;
  }

  /** One cell of another class than a number or NULL: the column is left to SQL. */
  addOther(): void {
    this.failed = true;
  }

  /** One number; `integer` tells SQLite's storage class. */
  addNumber(value: number, integer: boolean): void {
    if (this.failed) return;
    if (integer) {
      if (!Number.isSafeInteger(value)) {
        this.failed = true;
        return;
      }
      this.integers++;
    } else this.reals++;
    // -0 and 0 are one value to SQL.
    const v = value + 0;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (this.categories) {
      const at = this.categories.indexOf(v);
      if (at >= 0) this.categoryRows[at]++;
      else if (this.categories.length === MAX_CATEGORIES) this.categories = null;
      else {
        this.categories.push(v);
        this.categoryRows.push(1);
      }
    }
    if (this.slots) this.remember(v);
  }

  private remember(v: number): void {
    let slots = this.slots!;
    let mask = slots.length - 1;
    for (let s = hashNumber(v) & mask; ; s = (s + 1) & mask) {
      const x = slots[s];
      if (x === v) return;
      if (x !== x) break;
    }
    if (++this.distinct > DISTINCT_CAP) {
      this.slots = null;
      return;
    }
    if (this.distinct * 2 > slots.length) {
      const old = slots;
      this.slots = slots = new Float64Array(old.length * 2).fill(NaN);
      mask = slots.length - 1;
      for (const o of old) if (o === o) this.place(o, mask);
    }
    this.place(v, mask);
  }

  private place(v: number, mask: number): void {
    const slots = this.slots!;
    let s = hashNumber(v) & mask;
    while (slots[s] === slots[s]) s = (s + 1) & mask;
    slots[s] = v;
  }

  /** The column was read to the end (`rows` rows). */
  done(rows: number): void {
    this.rows = rows;
  }

  /** The column's statistics, or null when SQL must give them (see above, or not read to the end). */
  result(): ColumnStats | null {
    const rows = this.rows;
    if (rows === null || this.failed || !this.slots) return null;
    const nonNull = this.integers + this.reals;
    const storageClasses: ColumnStats['storageClasses'] = {};
    if (this.integers > 0) storageClasses.integer = this.integers;
    if (this.reals > 0) storageClasses.real = this.reals;
    if (this.nulls > 0) storageClasses.null = this.nulls;
    let categories: CategoryCount[] | null = null;
    if (this.categories && this.distinct > 0 && this.distinct < nonNull) {
      const rowsOf = this.categoryRows;
      categories = this.categories
        .map((value, i) => ({ value, count: rowsOf[i] }))
        .sort((a, b) => b.count - a.count || a.value - b.value);
    }
    return {
      table: this.table,
      column: this.column,
      rowsScanned: rows,
      approximate: false,
      nullCount: this.nulls,
      distinctCount: this.distinct,
      storageClasses,
      min: nonNull > 0 ? this.min : null,
      max: nonNull > 0 ? this.max : null,
      samples: [],
      categories,
      avgLength: null,
      looksLikeDate: false,
    };
  }
}
