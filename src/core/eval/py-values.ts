// Result cells as the official evaluators see them. Both are Python programs reading SQLite
// through the sqlite3 module, so a cell is an int, a float, a str, bytes or None, and their
// verdicts follow Python's rules: `1 == 1.0` (and both hash alike, so sets and dict keys merge
// them), text compares exactly (case and spaces count), None equals only None. The Spider
// evaluator also sorts the cells of each row by `str(x) + str(type(x))`, so the Python spelling of
// a value matters there; `sortKey` reproduces it (`1.0<class 'float'>`, `None<class 'NoneType'>`).
//
// sql.js gives numbers for both SQLite integers and reals; the storage classes the engine saw per
// column tell them apart. A column holding both kinds makes an integral number an int (a REAL
// like 2.0 in such a column is the one case read differently from Python).

import type { QueryResult, SqlValue, StorageClass } from '../types';

export interface PyCell {
  /** Equal for values Python's `==` and `hash` treat as one (1 and 1.0 alike). */
  eq: string;
  /** Python's `str(x) + str(type(x))`, the Spider evaluator's in-row sort key. */
  sortKey: string;
}

export type PyRow = PyCell[];

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Python's repr() of a float (shortest round-trip digits; exponent below 1e-4 and from 1e16). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = x.toExponential().split('e');
  const exp = Number(expText);
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  return `${sign}${whole}.${digits.slice(exp + 1) || '0'}`;
}

/** Python's repr() of bytes: b'…' with \xNN escapes. */
export function pyBytesRepr(b: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const c of b) {
    if (c === 0x27) hasSingle = true;
    if (c === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let body = '';
  for (const c of b) {
    if (c === 0x5c) body += '\\\\';
    else if (c === quote.charCodeAt(0)) body += `\\${quote}`;
    else if (c === 0x09) body += '\\t';
    else if (c === 0x0a) body += '\\n';
    else if (c === 0x0d) body += '\\r';
    else if (c < 0x20 || c >= 0x7f) body += `\\x${c.toString(16).padStart(2, '0')}`;
    else body += String.fromCharCode(c);
  }
  return `b${quote}${body}${quote}`;
}

function intCell(v: bigint): PyCell {
  const s = v.toString();
  return { eq: `n:${s}`, sortKey: `${s}<class 'int'>` };
}

function floatCell(v: number): PyCell {
  // An integral float equals (and hashes like) the int of the same value.
  const eq = Number.isInteger(v) ? `n:${BigInt(v).toString()}` : `f:${pyFloatRepr(v)}`;
  return { eq, sortKey: `${pyFloatRepr(v)}<class 'float'>` };
}

/** One cell; `kinds` is what the engine saw in its column. */
export function pyCell(v: SqlValue, kinds: readonly StorageClass[] = []): PyCell {
  if (v === null) return { eq: 'none', sortKey: "None<class 'NoneType'>" };
  if (typeof v === 'bigint') return intCell(v);
  if (typeof v === 'string') return { eq: `s:${v}`, sortKey: `${v}<class 'str'>` };
  if (v instanceof Uint8Array) return { eq: `b:${hex(v)}`, sortKey: `${pyBytesRepr(v)}<class 'bytes'>` };
  const real = kinds.includes('real');
  const integer = kinds.includes('integer');
  const isInt = Number.isInteger(v) && (integer || !real);
  return isInt ? intCell(BigInt(v)) : floatCell(v);
}

/** Every row of a result as Python cells. */
export function pyRows(result: Pick<QueryResult, 'rows' | 'columnTypes'>): PyRow[] {
  return result.rows.map((row) => row.map((v, i) => pyCell(v, result.columnTypes[i])));
}

/** A row's identity under Python tuple equality. */
export const rowKey = (row: PyRow): string => JSON.stringify(row.map((c) => c.eq));

/** Python's str ordering: by code point (JS `<` compares UTF-16 units, which differs above U+FFFF). */
export function comparePyStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
