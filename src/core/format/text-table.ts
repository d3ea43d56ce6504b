// Query results as an aligned plain-text table, for the CLI.

import { blobToHex } from '../export/values';
import type { SqlValue } from '../types';
import { cutToWidth, displayWidth, visible } from './visible';

export interface TextTableInput {
  columns: string[];
  rows: SqlValue[][];
  /** True when the statement had more rows than were fetched. */
  truncated?: boolean;
}

export interface TextTableOptions {
  /** Total width to fit in, e.g. the terminal's columns. Default 120. */
  maxWidth?: number;
  /** Widest a single column may be before its cells are cut. Default 40. */
  maxCellWidth?: number;
}

const SEPARATOR = ' | ';
/** Columns are not squeezed below this, even when the table is then wider than maxWidth. */
const MIN_COLUMN_WIDTH = 4;
/** Bytes of a blob shown before it is cut anyway (hex of a large blob is useless on screen). */
const BLOB_PREVIEW_BYTES = 32;

function cellText(v: SqlValue): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) {
    const hex = blobToHex(v.subarray(0, BLOB_PREVIEW_BYTES));
    return v.length > BLOB_PREVIEW_BYTES ? `${hex}…` : hex;
  }
  return visible(String(v));
}

/** Shrinks the widest columns first until the table fits `maxWidth` or nothing can shrink. */
function fitWidths(natural: number[], maxWidth: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + SEPARATOR.length * (widths.length - 1);
  while (total() > maxWidth) {
    let widest = 0;
    widths.forEach((w, i) => {
      if (w > widths[widest]) widest = i;
    });
    if (widths[widest] <= MIN_COLUMN_WIDTH) break;
    widths[widest]--;
  }
  return widths;
}

function pad(text: string, width: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return right ? fill + text : text + fill;
}

export function rowCountFooter(count: number, truncated: boolean): string {
  if (truncated) return `first ${count} ${count === 1 ? 'row' : 'rows'} (more not shown)`;
  return `${count} ${count === 1 ? 'row' : 'rows'}`;
}

/**
 * Header, a dashed rule, one line per row, then a footer ("3 rows", "first 100 rows (more not
 * shown)"). Numbers are right-aligned. Cells never contain control characters (see visible.ts),
 * so every row is exactly one terminal line.
 */
export function formatTextTable(result: TextTableInput, options: TextTableOptions = {}): string {
  const maxWidth = options.maxWidth ?? 120;
  const maxCell = Math.max(1, options.maxCellWidth ?? 40);
  const footer = rowCountFooter(result.rows.length, !!result.truncated);
  if (result.columns.length === 0) return `${footer}\n`;

  const header = result.columns.map(visible);
  const cells = result.rows.map((row) => result.columns.map((_, i) => cellText(row[i] ?? null)));
  const numeric = result.columns.map(
    (_, i) =>
      result.rows.some((r) => typeof r[i] === 'number') &&
      result.rows.every((r) => typeof r[i] === 'number' || r[i] === null),
  );
  // A loop, not Math.max(...widths): spreading a column of 200,000 rows overflows the stack.
  const natural = header.map((h, i) => {
    let widest = displayWidth(h);
    for (const r of cells) widest = Math.max(widest, displayWidth(r[i]));
    return Math.min(maxCell, widest);
  });
  const widths = fitWidths(natural, maxWidth);

  const line = (texts: string[], alignRight: boolean[]) =>
    texts
      .map((t, i) => pad(cutToWidth(t, widths[i]), widths[i], alignRight[i]))
      .join(SEPARATOR)
      .trimEnd();
  const lines = [
    line(header, numeric),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...cells.map((r) => line(r, numeric)),
    footer,
  ];
  return lines.join('\n') + '\n';
}
