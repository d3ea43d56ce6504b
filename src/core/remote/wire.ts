// How engine calls and results cross HTTP between the page and `dowser serve` (issue 36): JSON,
// with the values JSON cannot carry tagged. A worker's structured clone keeps bigints (64-bit
// ids), blobs, Float32Arrays (semantic scores), Maps and non-finite numbers; so does this.
// A real object whose own key is the tag is wrapped, so no data can pass for a tagged value.

import { DowserError, ERROR_CODES, type ErrorCode } from '../errors';

const TAG = '$wire';

type Tagged =
  | { [TAG]: 'bigint'; v: string }
  | { [TAG]: 'bytes'; v: string }
  | { [TAG]: 'f32'; v: number[] }
  | { [TAG]: 'number'; v: 'NaN' | 'Infinity' | '-Infinity' }
  | { [TAG]: 'map'; v: Array<[unknown, unknown]> }
  | { [TAG]: 'undefined' }
  | { [TAG]: 'object'; v: Record<string, unknown> };

// btoa/atob exist in browsers and Node 16+; bytes go through them in chunks (no spread of a large array).
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A value as plain JSON (see the file comment). Functions and symbols are not data and are refused. */
export function toWire(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    return { [TAG]: 'number', v: Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity' };
  }
  if (typeof value === 'bigint') return { [TAG]: 'bigint', v: value.toString() };
  if (value === undefined) return { [TAG]: 'undefined' };
  if (value instanceof Uint8Array) return { [TAG]: 'bytes', v: toBase64(value) };
  if (value instanceof Float32Array) return { [TAG]: 'f32', v: Array.from(value) };
  if (value instanceof Map) return { [TAG]: 'map', v: [...value].map(([k, v]) => [toWire(k), toWire(v)]) };
  if (Array.isArray(value)) return value.map(toWire);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toWire(v);
    return Object.hasOwn(out, TAG) ? { [TAG]: 'object', v: out } : out;
  }
  throw new DowserError('internal', `A ${typeof value} cannot be sent to or from dowser serve.`);
}

/** The inverse of toWire; anything malformed is an `internal` error, never a wrong value. */
export function fromWire(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(fromWire);
  const record = value as Record<string, unknown>;
  if (!Object.hasOwn(record, TAG)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) out[k] = fromWire(v);
    return out;
  }
  return fromTagged(record as Tagged);
}

const bad = () => new DowserError('internal', 'dowser serve sent a value this page cannot read.');

function fromTagged(tagged: Tagged): unknown {
  switch (tagged[TAG]) {
    case 'bigint':
      if (typeof tagged.v !== 'string' || !/^-?\d+$/.test(tagged.v)) throw bad();
      return BigInt(tagged.v);
    case 'bytes':
      if (typeof tagged.v !== 'string') throw bad();
      return fromBase64(tagged.v);
    case 'f32':
      if (!Array.isArray(tagged.v) || tagged.v.some((x) => typeof x !== 'number')) throw bad();
      return Float32Array.from(tagged.v);
    case 'number':
      if (tagged.v === 'NaN') return NaN;
      if (tagged.v === 'Infinity') return Infinity;
      if (tagged.v === '-Infinity') return -Infinity;
      throw bad();
    case 'map':
      if (!Array.isArray(tagged.v)) throw bad();
      return new Map(
        tagged.v.map((pair) => {
          if (!Array.isArray(pair) || pair.length !== 2) throw bad();
          return [fromWire(pair[0]), fromWire(pair[1])];
        }),
      );
    case 'undefined':
      return undefined;
    case 'object': {
      if (!tagged.v || typeof tagged.v !== 'object' || Array.isArray(tagged.v)) throw bad();
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(tagged.v)) out[k] = fromWire(v);
      return out;
    }
    default:
      throw bad();
  }
}

/** An error as it crosses: its code, message and detail (the server's hint), nothing else. */
export interface WireError {
  code: string;
  message: string;
  detail?: string;
  quotesData?: boolean;
}

export function errorToWire(e: DowserError): WireError {
  return {
    code: e.code,
    message: e.message,
    ...(e.detail !== undefined ? { detail: e.detail } : {}),
    ...(e.quotesData ? { quotesData: true } : {}),
  };
}

const KNOWN_CODES = new Set<string>(ERROR_CODES);

/** An error read back; a code this page does not know becomes `internal` with the same message. */
export function errorFromWire(w: unknown): DowserError {
  if (!w || typeof w !== 'object') return new DowserError('internal', 'dowser serve sent an error without a message.');
  const o = w as Record<string, unknown>;
  const message = typeof o.message === 'string' ? o.message : 'dowser serve sent an error without a message.';
  const code: ErrorCode = typeof o.code === 'string' && KNOWN_CODES.has(o.code) ? (o.code as ErrorCode) : 'internal';
  return new DowserError(code, message, typeof o.detail === 'string' ? o.detail : undefined, o.quotesData === true);
}
