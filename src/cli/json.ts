import { blobToHex } from '../core/export/values';
import { escapeJsonForDisplay } from '../core/format/visible';

/** JSON.stringify replacer for results: blobs as 0x… hex, 64-bit integers as digit strings. */
export function bigintSafe(_key: string, v: unknown): unknown {
  if (v instanceof Uint8Array) return blobToHex(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Float32Array) return Array.from(v);
  return v;
}

/**
 * JSON for stdout and files: `bigintSafe` values, and the characters JSON.stringify leaves raw
 * that can fool a terminal (bidi controls, U+2028, C1 controls) written as `\uXXXX`, which
 * parses to the same value.
 */
export function toJson(value: unknown, indent?: number): string {
  return escapeJsonForDisplay(JSON.stringify(value, bigintSafe, indent));
}
