// Result exports for download (page) and output (CLI): CSV per RFC 4180 and JSON.

import Papa from 'papaparse';
import type { SqlValue } from '../types';
import { protectFormula } from './formula-guard';
import { blobToHex, jsonValue, uniqueColumnNames } from './values';

export interface ExportableResult {
  columns: string[];
  rows: SqlValue[][];
}

const CRLF = '\r\n';

export interface CsvOptions {
  /**
   * Prefix `'` to text that a spreadsheet would run as a formula (see formula-guard.ts). Numbers
   * stay as they are: `-5` stored as a number is data, `-5` stored as text gets the prefix.
   */
  protectFormulas?: boolean;
  /** Applied to every text field last (the CLI makes control characters visible with it). */
  text?: (s: string) => string;
}

/** NULL is an empty field (CSV has no NULL); numbers as JavaScript prints them; blobs as hex. */
function csvField(v: SqlValue, o: CsvOptions): string {
  if (v === null) return '';
  if (v instanceof Uint8Array) return blobToHex(v);
  if (typeof v !== 'string') return String(v);
  return textField(v, o);
}

function textField(v: string, o: CsvOptions): string {
  const guarded = o.protectFormulas ? protectFormula(v) : v;
  return o.text ? o.text(guarded) : guarded;
}

/**
 * RFC 4180: comma-separated, CRLF after every record (the last one too, which the RFC allows),
 * a header record of column names, fields holding a comma, quote, CR or LF enclosed in double
 * quotes with inner quotes doubled. Papa.unparse does the quoting. Two of its habits stay within
 * the RFC: it also quotes fields with a leading or trailing space (the RFC lets any field be
 * quoted, and quoting keeps tools that trim from dropping the spaces) and fields with a BOM.
 *
 * Papa's own `escapeFormulae` stays off: it cannot tell a number from text. Formula protection
 * is `options.protectFormulas`, which the page turns on by default and states beside its button.
 */
export function resultToCsv(result: ExportableResult, options: CsvOptions = {}): string {
  if (result.columns.length === 0) return '';
  // The header goes in as the first record: given `{fields, data: []}`, Papa.unparse would
  // write an extra empty record after the header.
  const records = [
    result.columns.map((c) => textField(c, options)),
    ...result.rows.map((row) => row.map((v) => csvField(v, options))),
  ];
  const body = Papa.unparse(records, {
    delimiter: ',',
    newline: CRLF,
    quoteChar: '"',
    escapeChar: '"',
    quotes: false,
    header: false,
    skipEmptyLines: false,
    escapeFormulae: false,
  });
  return body + CRLF;
}

/**
 * Tab-separated rows for the clipboard, which spreadsheets paste into cells: a header line, then
 * one line per row; a field holding a tab, a line break or a quote is quoted as in CSV, NULL is
 * empty, blobs are hex. Formula protection as in CSV (on where the page's setting is).
 */
export function resultToTsv(result: ExportableResult, options: CsvOptions = {}): string {
  if (result.columns.length === 0) return '';
  const records = [
    result.columns.map((c) => textField(c, options)),
    ...result.rows.map((row) => row.map((v) => csvField(v, options))),
  ];
  return Papa.unparse(records, {
    delimiter: '\t',
    newline: CRLF,
    quoteChar: '"',
    escapeChar: '"',
    escapeFormulae: false,
  });
}

/** Pretty JSON: an array with one object per row, keyed by (deduplicated) column name. */
export function resultToJson(result: ExportableResult): string {
  const keys = uniqueColumnNames(result.columns);
  const objects = result.rows.map((row) => Object.fromEntries(keys.map((k, i) => [k, jsonValue(row[i] ?? null)])));
  return JSON.stringify(objects, null, 2);
}
