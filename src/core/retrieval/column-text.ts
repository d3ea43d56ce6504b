// What a column "says" to retrieval: the sentence embedded for SearchColumn (after
// Interactive-T2S: "a column named C in table T about DESC" plus value hints) and the value
// words the lexical index sees.

import type { ColumnStats, SqlValue } from '../types';

const MAX_HINT_VALUES = 8;
const MAX_HINT_CHARS = 40;

function hintValue(v: SqlValue): string | null {
  if (v === null || v instanceof Uint8Array) return null;
  const s = String(v);
  return s.length > MAX_HINT_CHARS ? s.slice(0, MAX_HINT_CHARS) : s;
}

/** A few representative values: the categories when few, else samples; min/max for ranges. */
export function valueHints(stats: ColumnStats | null): string[] {
  if (!stats) return [];
  const source = stats.categories ? stats.categories.map((c) => c.value) : stats.samples;
  const out = source
    .map(hintValue)
    .filter((v): v is string => v !== null)
    .slice(0, MAX_HINT_VALUES);
  return out;
}

export function describeRange(stats: ColumnStats | null): string {
  if (!stats || stats.min === null || stats.categories) return '';
  const min = hintValue(stats.min);
  const max = hintValue(stats.max);
  if (min === null || max === null) return '';
  return stats.looksLikeDate ? `dates from ${min} to ${max}` : `values from ${min} to ${max}`;
}

/** The sentence a column is embedded as. */
export function columnSentence(
  table: string,
  column: string,
  description: string | null,
  stats: ColumnStats | null,
): string {
  const parts = [`a column named ${column} in table ${table}`];
  if (description) parts.push(`about ${description}`);
  const hints = valueHints(stats);
  if (hints.length) parts.push(`with values like ${hints.join(', ')}`);
  const range = describeRange(stats);
  if (range) parts.push(range);
  return parts.join(', ');
}
