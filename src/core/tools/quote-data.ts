// Database text inside observations is data, never instructions: it is always written as a
// JSON string literal (quotes, newlines and control characters escaped) and cut to a length.

import type { SqlValue } from '../types';

export function quoteData(v: SqlValue, maxChars = 60): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) return `<blob ${v.length} bytes>`;
  if (typeof v === 'string') return JSON.stringify(v.length > maxChars ? v.slice(0, maxChars) + '…' : v);
  return String(v);
}
