// Database text inside observations is data, never instructions: it is always written as a
// JSON string literal (quotes, newlines and control characters escaped) and cut to a length.
// Every cell value is also marked (privacy/marks.ts) so the privacy gate, the one road to a
// model, can keep, reduce or drop it at the level the person chose (privacy/disclose.ts).

import { markRow, markValue } from '../privacy/marks';
import type { SqlValue } from '../types';

// JSON.stringify escapes only U+0000-U+001F: C1 controls (U+0085 is a line break to some) and
// the line and paragraph separators stay raw, so they are escaped here too, and so are the
// privacy marks, so data can never close one early (a forged mark elsewhere can only make the gate
// withhold more, never less: privacy/disclose.ts).
const RAW_IN_JSON = /[\u0080-\u009f\u2028\u2029\uE000-\uE003]/g;

/** `text` as a JSON string literal that holds no line break of any kind. */
export function jsonData(text: string): string {
  return JSON.stringify(text).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A cell value as the model may read it: quoted, cut, and marked as data for the privacy gate. */
export function quoteData(v: SqlValue, maxChars = 60): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) return `<blob ${v.length} bytes>`;
  if (typeof v === 'string') return markValue(jsonData(v.length > maxChars ? v.slice(0, maxChars) + '…' : v));
  return markValue(String(v));
}

/** A text cell value whole (no cut), quoted and marked. */
export const valueData = (text: string): string => markValue(jsonData(text));

/** One row of a preview (`a | b | c`): withheld as a whole below the full level. */
export const rowData = (row: readonly SqlValue[], maxChars = 60): string =>
  markRow(row.map((v) => quoteData(v, maxChars)).join(' | '));
