// The type of an imported column, inferred from its values, and each value as the number its
// column stores — losslessly (issue 35, item 7): a whole number past 2^53 stays INTEGER and goes
// to SQLite as its digits, which SQLite's INTEGER affinity turns into the exact 64-bit integer;
// one beyond 64 bits makes its column TEXT; a decimal with more digits than a double holds is
// rounded, as any REAL is, and `roundedTo` lets the importer say so.

export type ImportType = 'INTEGER' | 'REAL' | 'TEXT';

export const REAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
export const LEADING_ZERO = /^[-+]?0\d/;

/** INTEGER's test without a regular expression (most cells of a numeric column): digits, a sign, no leading zero. */
export function isInteger(v: string): boolean {
  let i = v.charCodeAt(0) === 43 || v.charCodeAt(0) === 45 ? 1 : 0; // + -
  if (i === v.length) return false;
  if (v.charCodeAt(i) === 48) return v.length === i + 1; // "0", "-0"; "007" is a code
  for (; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** Whether an integer literal (isInteger) is one SQLite stores as an INTEGER: 64 bits, signed. */
export function fitsInt64(v: string): boolean {
  const digits = v.length - (v.charCodeAt(0) === 43 || v.charCodeAt(0) === 45 ? 1 : 0);
  if (digits < 19) return true;
  if (digits > 19) return false;
  const n = BigInt(v);
  return n <= INT64_MAX && n >= INT64_MIN;
}

/** A column's type from the values seen so far (see inferType). */
export class TypeGuess {
  private type: ImportType = 'INTEGER';
  private any = false;
  /** The first whole number seen that is beyond 64 bits (it made the column TEXT). */
  beyond: string | null = null;

  copy(): TypeGuess {
    const g = new TypeGuess();
    g.type = this.type;
    g.any = this.any;
    g.beyond = this.beyond;
    return g;
  }

  see(v: string): void {
    if (v === '' || this.type === 'TEXT') return;
    this.any = true;
    if (LEADING_ZERO.test(v)) this.type = 'TEXT';
    else if (isInteger(v)) {
      // No type but TEXT keeps such a number as written (a REAL would round it).
      if (!fitsInt64(v)) {
        this.type = 'TEXT';
        this.beyond = v;
      }
    } else {
      if (this.type === 'INTEGER') this.type = 'REAL';
      if (!REAL.test(v)) this.type = 'TEXT';
    }
  }

  get result(): ImportType {
    return this.any ? this.type : 'TEXT';
  }

  /** Nothing more can change it (a value was no number). */
  get settled(): boolean {
    return this.type === 'TEXT';
  }
}

/**
 * INTEGER when every value is a whole number SQLite holds (64 bits), REAL when every value is a
 * number, else TEXT (also when a value has a leading zero: "007" is a code; and when a whole
 * number is beyond 64 bits). Empty cells are NULL and say nothing.
 */
export function inferType(values: Iterable<string>): ImportType {
  const guess = new TypeGuess();
  for (const v of values) guess.see(v);
  return guess.result;
}

/**
 * `v` (trimmed, not empty) as the value a column of `type` stores, or null when it is no number
 * of that type. A whole number past 2^53 in an INTEGER column is its digits (SQLite's INTEGER
 * affinity stores them as the exact integer; a double would round them).
 */
export function numberOf(v: string, type: 'INTEGER' | 'REAL'): number | string | null {
  if (isInteger(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n)) return n;
    if (!fitsInt64(v)) return null;
    return type === 'REAL' ? n : v.charCodeAt(0) === 43 ? v.slice(1) : v;
  }
  if (type === 'INTEGER' || LEADING_ZERO.test(v)) return null;
  return REAL.test(v) ? Number(v) : null;
}

/** Significant digits and the decimal exponent of a number's text: "0.0120" and "1.2e-2" alike. */
function decimalOf(text: string): string {
  const [mantissa, e = '0'] = text.replace(/^[-+]/, '').toLowerCase().split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  const all = whole + fraction;
  const lead = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(lead).replace(/0+$/, '');
  return digits === '' ? '0' : `${digits}e${Number(e) + whole.length - lead}`;
}

/**
 * What a REAL makes of `v`, written as a double's shortest digits, when that is not the number
 * `v` says (it has more digits than a double keeps); null when it is kept. "0.30000000000000004"
 * is a double's own digits and kept; "3.14159265358979323846" becomes 3.141592653589793.
 */
export function roundedTo(v: string, n: number): string | null {
  if (!Number.isFinite(n)) return String(n);
  let digits = 0;
  for (let i = 0; i < v.length && digits <= 15; i++) {
    const c = v.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
  }
  // A double holds any 15 significant digits.
  if (digits <= 15) return null;
  const stored = String(n);
  return decimalOf(stored) === decimalOf(v) ? null : stored;
}
