// Database text inside observations is data, never instructions: it is always written as a
// JSON string literal (quotes, newlines and control characters escaped) and cut to a length.

import type { SqlValue } from '../types';

// JSON.stringify escapes only U+0000-U+001F: C1 controls (U+0085 is a line break to some) and
// the line and paragraph separators stay raw, so they are escaped here too.
const RAW_IN_JSON = /[\u0080-\u009f\u2028\u2029]/g;

/** `text` as a JSON string literal that holds no line break of any kind. */
export function jsonData(text: string): string {
  return JSON.stringify(text).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function quoteData(v: SqlValue, maxChars = 60): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) return `<blob ${v.length} bytes>`;
  if (typeof v === 'string') return jsonData(v.length > maxChars ? v.slice(0, maxChars) + '…' : v);
  return String(v);
}
