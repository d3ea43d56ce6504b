// Result exports for download (page) and output (CLI): CSV per RFC 4180 and JSON.

import Papa from 'papaparse';
import type { SqlValue } from '../types';
import { blobToHex, jsonValue, uniqueColumnNames } from './values';

export interface ExportableResult {
  columns: string[];
  rows: SqlValue[][];
}

const CRLF = '\r\n';

/** NULL is an empty field (CSV has no NULL); numbers as JavaScript prints them; blobs as hex. */
function csvField(v: SqlValue): string {
  if (v === null) return '';
  if (v instanceof Uint8Array) return blobToHex(v);
  return String(v);
}

/**
 * RFC 4180: comma-separated, CRLF after every record (the last one too, which the RFC allows),
 * a header record of column names, fields holding a comma, quote, CR or LF enclosed in double
 * quotes with inner quotes doubled. Papa.unparse does the quoting. Two of its habits stay within
 * the RFC: it also quotes fields with a leading or trailing space (the RFC lets any field be
 * quoted, and quoting keeps tools that trim from dropping the spaces) and fields with a BOM.
 *
 * `escapeFormulae` (prefixing `'` to fields that start with = + - @, against formula injection
 * when the file is opened in a spreadsheet) stays off on purpose: an export must hold exactly the
 * database's values, and `-5` or `=x` are legitimate data.
 */
export function resultToCsv(result: ExportableResult): string {
  if (result.columns.length === 0) return '';
  // The header goes in as the first record: given `{fields, data: []}`, Papa.unparse would
  // write an extra empty record after the header.
  const records = [result.columns, ...result.rows.map((row) => row.map(csvField))];
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

/** Pretty JSON: an array with one object per row, keyed by (deduplicated) column name. */
export function resultToJson(result: ExportableResult): string {
  const keys = uniqueColumnNames(result.columns);
  const objects = result.rows.map((row) => Object.fromEntries(keys.map((k, i) => [k, jsonValue(row[i] ?? null)])));
  return JSON.stringify(objects, null, 2);
}
