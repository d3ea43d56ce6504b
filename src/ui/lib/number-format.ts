// Numbers in the results grid: the browser's digit grouping (146,934,000 in English, 146.934.000
// in German), or as stored when the person prefers (Settings, or the grid's toggle).

import { isIdentifierName } from '../../core/results/column-names';

/**
 * 'min2' groups only from five digits, so years (2024) read as years; identifiers and codes
 * (`id`, `customer_id`, `CustomerId`, `zip`, `code`) stay as stored, since separators in them mislead.
 */
const grouped = new Intl.NumberFormat(undefined, { useGrouping: 'min2', maximumFractionDigits: 20 });
/** Identifiers and codes keep their stored form (core/results/column-names.ts). */
export const isIdentifierColumn = isIdentifierName;

/** The text a number cell shows. */
export function numberText(value: number | bigint, column: string, raw: boolean): string {
  if (raw || isIdentifierColumn(column)) return String(value);
  // Beyond what a double holds exactly, grouping could print a rounded value: keep it as stored.
  if (typeof value === 'number' && (!Number.isFinite(value) || Math.abs(value) >= 1e21)) return String(value);
  const text = grouped.format(value);
  // maximumFractionDigits caps at 20 places; a value that prints differently is shown as stored.
  return Number.isInteger(value) || typeof value === 'bigint' || sameDigits(text, String(value)) ? text : String(value);
}

/** Same digits in the same order (the separators aside): nothing was rounded. */
function sameDigits(a: string, b: string): boolean {
  const digits = (s: string) => s.replace(/\D/g, '');
  return digits(a) === digits(b);
}
