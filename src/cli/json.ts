import { blobToHex } from '../core/export/values';

/** JSON.stringify replacer for results: blobs as 0x… hex, 64-bit integers as digit strings. */
export function bigintSafe(_key: string, v: unknown): unknown {
  if (v instanceof Uint8Array) return blobToHex(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Float32Array) return Array.from(v);
  return v;
}
