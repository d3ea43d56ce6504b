// A CSV, TSV or JSON file as a table (issue 26: most people's own data is not SQLite): parsed,
// its header found, each column's type inferred from all its values, and every row kept — a row
// with too few or too many fields is filled or joined and reported with its row number, never
// dropped. Pure (papaparse is plain JavaScript), so the page's worker and the CLI import alike.

import Papa from 'papaparse';
import type { SqlValue } from '../types';

export type ImportType = 'INTEGER' | 'REAL' | 'TEXT';

export interface ParsedTable {
  /** The table's name in the new database, from the file's name. */
  table: string;
  columns: Array<{ name: string; type: ImportType }>;
  rows: SqlValue[][];
  /** Rows that did not fit, each with its row number in the file; and other notes. */
  problems: string[];
  /** False when the first row held data: the columns are named column_1, column_2, … */
  header: boolean;
}

/** Files the page and the CLI import instead of opening as SQLite. */
export const TABLE_FILE = /\.(csv|tsv|tab|txt|json|jsonl|ndjson)$/i;

/** Problems listed one by one; past this they are counted. */
const LISTED = 20;

const INTEGER = /^[-+]?(0|[1-9]\d*)$/;
const REAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const LEADING_ZERO = /^[-+]?0\d/;

/** A name SQLite and people can use: the file's base name, letters, digits and _ only. */
export function tableNameOf(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
  const clean = base.replace(/[^\p{L}\p{N}_]+/gu, '_').replace(/^_+|_+$/g, '');
  return /^\p{L}|^_/u.test(clean) ? clean : `t_${clean || 'table'}`;
}

/** Column names as given, trimmed, empty ones named by position and repeats numbered. */
export function columnNamesOf(raw: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((r, i) => {
    const name = r.trim() || `column_${i + 1}`;
    const key = name.toLowerCase();
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n === 1 ? name : `${name}_${n}`;
  });
}

/**
 * INTEGER when every value is a whole number, REAL when every value is a number, else TEXT (also
 * when a value has a leading zero: "007" is a code). Empty cells are NULL and say nothing.
 */
export function inferType(values: Iterable<string>): ImportType {
  let type: ImportType = 'INTEGER';
  let any = false;
  for (const v of values) {
    if (v === '') continue;
    any = true;
    // A leading zero ("00501", "007") is a code: as a number it would lose its zeros.
    if (LEADING_ZERO.test(v)) return 'TEXT';
    if (type === 'INTEGER' && (!INTEGER.test(v) || !Number.isSafeInteger(Number(v)))) type = 'REAL';
    if (type === 'REAL' && !REAL.test(v)) return 'TEXT';
  }
  return any ? type : 'TEXT';
}

const typed = (v: string, type: ImportType): SqlValue => {
  if (v === '') return null;
  if (type === 'TEXT') return v;
  return Number(v);
};

/**
 * A first row of distinct, non-empty names, none a number, is a header: most files have one, and
 * a first data row of text only is rare enough that the page shows the columns it made.
 */
function looksLikeHeader(first: readonly string[]): boolean {
  if (first.some((c) => c.trim() === '' || REAL.test(c.trim()))) return false;
  return new Set(first.map((c) => c.trim().toLowerCase())).size === first.length;
}

export function parseTableFile(fileName: string, text: string): ParsedTable {
  const body = text.replace(/^\uFEFF/, '');
  if (/\.(json|jsonl|ndjson)$/i.test(fileName)) return parseJsonTable(fileName, body);
  const parsed = Papa.parse<string[]>(body, {
    skipEmptyLines: 'greedy',
    ...(/\.(tsv|tab)$/i.test(fileName) ? { delimiter: '\t' } : {}),
  });
  const data = parsed.data;
  const problems: string[] = [];
  for (const e of parsed.errors.filter((e) => e.code !== 'UndetectableDelimiter'))
    problems.push(`row ${(e.row ?? 0) + 1}: ${e.message}`);
  if (data.length === 0)
    return {
      table: tableNameOf(fileName),
      columns: [],
      rows: [],
      problems: ['The file holds no rows.'],
      header: false,
    };
  const header = looksLikeHeader(data[0]);
  const width = header ? data[0].length : Math.max(...data.slice(0, 1000).map((r) => r.length));
  const names = columnNamesOf(header ? data[0] : Array.from({ length: width }, () => ''));
  const first = header ? 1 : 0;
  const cells: string[][] = [];
  let misfits = 0;
  for (let i = first; i < data.length; i++) {
    let row = data[i];
    if (row.length !== width) {
      misfits++;
      if (misfits <= LISTED)
        problems.push(
          row.length < width
            ? `row ${i + 1}: ${row.length} fields, ${width} expected (the missing ones are NULL)`
            : `row ${i + 1}: ${row.length} fields, ${width} expected (the extra ones are joined into the last column)`,
        );
      row =
        row.length < width
          ? [...row, ...Array<string>(width - row.length).fill('')]
          : [...row.slice(0, width - 1), row.slice(width - 1).join(parsed.meta.delimiter || ',')];
    }
    cells.push(row);
  }
  if (misfits > LISTED) problems.push(`${misfits - LISTED} more rows with too few or too many fields`);
  const types = names.map((_, c) => inferType(cells.map((r) => r[c].trim())));
  return {
    table: tableNameOf(fileName),
    columns: names.map((name, c) => ({ name, type: types[c] })),
    rows: cells.map((r) => r.map((v, c) => typed(types[c] === 'TEXT' ? v : v.trim(), types[c]))),
    problems,
    header,
  };
}

/** A JSON array of objects, or one object per line (JSON Lines): keys become columns, in first-seen order. */
function parseJsonTable(fileName: string, text: string): ParsedTable {
  const problems: string[] = [];
  let records: unknown[];
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      records = JSON.parse(trimmed) as unknown[];
    } catch (e) {
      throw new Error(`${fileName} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  } else {
    records = [];
    trimmed.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      try {
        records.push(JSON.parse(line));
      } catch {
        if (problems.length < LISTED) problems.push(`line ${i + 1}: not valid JSON (kept as text in a column "value")`);
        records.push({ value: line });
      }
    });
  }
  const keys: string[] = [];
  const seen = new Set<string>();
  const objects = records.map((r, i) => {
    if (r && typeof r === 'object' && !Array.isArray(r)) return r as Record<string, unknown>;
    if (problems.length < LISTED) problems.push(`record ${i + 1}: not an object (kept in a column "value")`);
    return { value: r };
  });
  for (const o of objects)
    for (const k of Object.keys(o))
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
  const names = columnNamesOf(keys);
  const cell = (v: unknown): SqlValue => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'string') return v;
    return JSON.stringify(v);
  };
  const rows = objects.map((o) => keys.map((k) => cell(o[k])));
  const types = keys.map((_, c): ImportType => {
    const present = rows.map((r) => r[c]).filter((v) => v !== null);
    if (present.length && present.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'INTEGER';
    if (present.length && present.every((v) => typeof v === 'number')) return 'REAL';
    return 'TEXT';
  });
  return {
    table: tableNameOf(fileName),
    columns: names.map((name, c) => ({ name, type: types[c] })),
    rows,
    problems,
    header: true,
  };
}
