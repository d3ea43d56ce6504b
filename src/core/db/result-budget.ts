// What a result may carry out of the engine. A 100 MB text cell, printf('%.*c', 1e8, 'x') or a
// 200 MB group_concat used to reach the page whole and crash the tab; now each cell is cut at a
// bound (its full length kept in `cut`) and rows stop once the result reaches a byte budget.
// The whole of one value can still be fetched on its own (DbEngine.wholeValue), up to
// WHOLE_VALUE_MAX: about what a browser tab holds in one string or buffer without trouble.

import type { CutCell, SqlValue } from '../types';

/** Rows a result carries by default (more are fetched page by page). */
export const DEFAULT_MAX_ROWS = 1000;
/** Characters (or blob bytes) a cell carries by default: far more than any grid shows. */
export const DEFAULT_MAX_CELL_CHARS = 100_000;
/** Bytes a result carries by default (text counted as UTF-16, two bytes a character). */
export const DEFAULT_MAX_RESULT_BYTES = 32 * 1024 * 1024;
/** Longest value fetched whole: 256 Mi characters or bytes (V8 strings stop at 512 Mi). */
export const WHOLE_VALUE_MAX = 256 * 1024 * 1024;
/** Bounds for exports (CSV, JSON, `dowser sql --csv/--json`): as much as a download can hold. */
export const EXPORT_MAX_CELL_CHARS = 16 * 1024 * 1024;
export const EXPORT_MAX_RESULT_BYTES = 512 * 1024 * 1024;

/** Once the budget is spent, the cells left in a row are cut this short (the row stays whole in shape). */
const SPENT_CELL_CHARS = 64;
const CELL_OVERHEAD = 16;

/** Memory a value takes in the page, roughly. */
export function valueBytes(v: SqlValue): number {
  if (typeof v === 'string') return 2 * v.length + CELL_OVERHEAD;
  if (isBytes(v)) return v.length + CELL_OVERHEAD;
  return CELL_OVERHEAD;
}

// `typeof` before `instanceof`: Node 20's optimising compiler (TurboFan, V8 11.3) crashed the
// process (SIGSEGV) on `instanceof Uint8Array` over rows mixing bigints, strings and blobs, after
// damaged files had run through this loop; node --no-opt did not crash (see the mutated-files test).
const isBytes = (v: SqlValue): v is Uint8Array => typeof v === 'object' && v !== null;

/** The first `n` UTF-16 units of `s`, never ending in half a surrogate pair. */
export function cutText(s: string, n: number): string {
  if (s.length <= n) return s;
  const end = n > 0 && /[\uD800-\uDBFF]/.test(s[n - 1]) ? n - 1 : n;
  return s.slice(0, end);
}

export class ResultBudget {
  bytes = 0;
  readonly cut: CutCell[] = [];

  constructor(
    private readonly maxCellChars: number,
    readonly maxBytes: number,
  ) {}

  get spent(): boolean {
    return this.bytes >= this.maxBytes;
  }

  /** Cuts the row's long values in place (recording their full length) and counts its size. */
  take(row: SqlValue[], rowIndex: number): void {
    for (let column = 0; column < row.length; column++) {
      const v = row[column];
      if (typeof v !== 'string' && !isBytes(v)) {
        this.bytes += CELL_OVERHEAD;
        continue;
      }
      const cap = this.spent ? Math.min(SPENT_CELL_CHARS, this.maxCellChars) : this.maxCellChars;
      if (v.length > cap) {
        row[column] = typeof v === 'string' ? cutText(v, cap) : v.slice(0, cap);
        this.cut.push({ row: rowIndex, column, length: v.length });
      }
      this.bytes += valueBytes(row[column]);
    }
  }
}
