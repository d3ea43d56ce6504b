// PostgreSQL's text-format values as Dowser's SqlValue (number, bigint, string, bytes, null): numbers
// that JavaScript holds exactly become numbers, int8 beyond 2^53 a bigint, a numeric a number unless
// its whole part has more than 15 digits (then its text, so no digit of a large amount is lost; the
// 16 or more fraction digits of an avg() are rounded as SQLite's REAL would, and a model reading
// an average sees a number, not a quoted string), bytea becomes bytes, booleans the words
// `true` and `false`; dates, times, intervals, JSON, arrays and every other type stay as the server
// prints them, so what a person sees is what psql shows and what a model reads is PostgreSQL's own.

import type { ColumnKind, SqlValue, StorageClass } from '../../core/types';

const OID = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  float4: 700,
  float8: 701,
  numeric: 1700,
} as const;

const asText = (s: string): SqlValue => s;

export const booleanValue = (s: string): SqlValue => (s === 't' || s === 'true' ? 'true' : 'false');

export function integerValue(s: string): SqlValue {
  const n = BigInt(s);
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** A numeric's text as a number when a double holds its whole part exactly (at most 15 digits). */
export function numericValue(s: string): SqlValue {
  const parts = /^-?(\d+)(\.\d+)?$/.exec(s);
  if (!parts) return s; // NaN, Infinity
  return parts[1].replace(/^0+/, '').length <= 15 ? Number(s) : s;
}

/** bytea in hex output (`\x…`, set for every session): the bytes. */
export function byteaValue(s: string): SqlValue {
  if (!s.startsWith('\\x')) return s;
  const hex = s.slice(2);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const PARSERS = new Map<number, (s: string) => SqlValue>([
  [OID.bool, booleanValue],
  [OID.bytea, byteaValue],
  [OID.int2, Number],
  [OID.int4, Number],
  [OID.oid, Number],
  [OID.int8, integerValue],
  [OID.float4, Number],
  [OID.float8, Number],
  [OID.numeric, numericValue],
]);

/** pg's `types` option: how each column's text becomes a value. */
export const VALUE_TYPES = {
  getTypeParser: (oid: number) => PARSERS.get(oid) ?? asText,
};

/** The storage class a value would have in SQLite, for the result's column types. */
export function storageClassOf(v: SqlValue): StorageClass {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'real';
  if (typeof v === 'string') return 'text';
  return 'blob';
}

const TEXT_OIDS = new Set([25, 1042, 1043, 19, 18]); // text, bpchar, varchar, name, char

/** What a column of this type OID holds (QueryResult.columnKinds). */
export function columnKindOf(oid: number): ColumnKind {
  if (isNumericOid(oid)) return 'number';
  if (oid === OID.bool) return 'boolean';
  if (oid === OID.bytea) return 'bytes';
  return TEXT_OIDS.has(oid) ? 'text' : 'other';
}

/** The types whose values are numbers, by their type OID (for charts and statistics). */
export function isNumericOid(oid: number): boolean {
  return (
    oid === OID.int2 ||
    oid === OID.int4 ||
    oid === OID.int8 ||
    oid === OID.float4 ||
    oid === OID.float8 ||
    oid === OID.numeric ||
    oid === OID.oid
  );
}
