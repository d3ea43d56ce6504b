// BIRD-style column descriptions (`database_description/<table>.csv`): decoding files of unknown
// encoding, parsing one table's CSV, and turning a description into the one line of text the
// retrieval tools read. Pure: the CLI reads the bytes from disk, the page from a picked File.

import Papa from 'papaparse';

/** One column's imported description (BIRD `database_description/<table>.csv`). */
export interface ColumnDescription {
  /** `column_name`: the spelled-out name, when the CSV gives one ('' otherwise). */
  expandedName: string;
  description: string;
  valueDescription: string;
  dataFormat: string;
}

/** table (file name without .csv) -> original column name -> description. */
export type DescriptionMap = Map<string, Map<string, ColumnDescription>>;

// 0x80-0x9F of Windows-1252 (undefined bytes kept as the C1 code point). Written out because
// Node's TextDecoder('windows-1252') decodes ISO-8859-1, turning € into U+0080.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/**
 * Text of a file whose encoding is not declared: a UTF-8 BOM is dropped; bytes that are not
 * valid UTF-8 are read as Windows-1252 (the Latin-1 superset several BIRD files are in). C1
 * control characters in UTF-8 text (U+0080-U+009F: Windows-1252 text once converted as if it
 * were Latin-1, as in several BIRD files) become the Windows-1252 characters they stood for.
 */
export function decodeText(bytes: Uint8Array): string {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  let utf8: string;
  try {
    utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    return decodeWindows1252(body);
  }
  return utf8.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);
}

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    out += Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b))).join('');
  }
  return out;
}

const clean = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * One table's descriptions from the text of its CSV, with the header
 * `original_column_name,column_name,column_description,data_format,value_description`
 * (header names trimmed and compared case-insensitively). Keys are the original column names
 * as written; compare case-insensitively when matching to a schema. Line ends inside values
 * become `\n`; fields are trimmed; rows without an original column name are skipped.
 */
export function parseBirdDescriptionCsv(text: string): Map<string, ColumnDescription> {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/\r\n?/g, '\n'), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim().toLowerCase(),
  });
  const columns = new Map<string, ColumnDescription>();
  for (const row of parsed.data) {
    const name = clean(row.original_column_name);
    if (!name) continue;
    columns.set(name, {
      expandedName: clean(row.column_name),
      description: clean(row.column_description),
      dataFormat: clean(row.data_format),
      valueDescription: clean(row.value_description),
    });
  }
  return columns;
}

const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .trim();

/**
 * A description as one line: the spelled-out name (when it says more than the column name),
 * the description and the value description, joined with "; " ('' when there is nothing).
 */
export function columnDescriptionText(column: string, d: ColumnDescription): string {
  const expanded = d.expandedName && words(d.expandedName) !== words(column) ? d.expandedName : '';
  return [expanded, d.description, d.valueDescription]
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('; ');
}

/**
 * `table -> column -> text` with lower-case keys (BIRD file names and schema names differ in
 * case), one line per column as `columnDescriptionText` makes it; columns with no text left out.
 */
export function descriptionTexts(map: DescriptionMap): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [table, columns] of map) {
    const t = out.get(table.toLowerCase()) ?? new Map<string, string>();
    for (const [column, d] of columns) {
      const text = columnDescriptionText(column, d);
      if (text) t.set(column.toLowerCase(), text);
    }
    out.set(table.toLowerCase(), t);
  }
  return out;
}
