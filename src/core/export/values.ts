// How exported files spell SQLite values that have no native form in CSV or JSON.

import type { SqlValue } from '../types';

/** A BLOB as `0x` + lowercase hex: readable, lossless, and what SQLite's X'..' literal holds. */
export function blobToHex(bytes: Uint8Array): string {
  let hex = '0x';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Column names made unique for keyed output: `SELECT a.id, b.id` gives `id` and `id_2`
 * (a later `id_2` that already exists moves on to `id_3`, so nothing is overwritten).
 */
export function uniqueColumnNames(columns: string[]): string[] {
  const used = new Set<string>();
  return columns.map((name) => {
    let key = name;
    for (let n = 2; used.has(key); n++) key = `${name}_${n}`;
    used.add(key);
    return key;
  });
}

/**
 * A value for JSON: numbers, text and null as they are; blobs as hex text. SQLite can hold
 * ±Infinity in a REAL, which JSON cannot spell: written as the text "Infinity" rather than
 * silently becoming null. Integers too large for a double are written as text, digit for digit.
 */
export function jsonValue(v: SqlValue): string | number | null {
  if (v instanceof Uint8Array) return blobToHex(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  // Integers beyond 2^53 stay exact as text: a JSON number would be rounded by most readers.
  if (typeof v === 'bigint') return String(v);
  return v;
}
