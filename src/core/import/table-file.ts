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

/** A column's type from the values seen so far (see inferType). */
class TypeGuess {
  private type: ImportType = 'INTEGER';
  private any = false;

  copy(): TypeGuess {
    const g = new TypeGuess();
    g.type = this.type;
    g.any = this.any;
    return g;
  }

  see(v: string): void {
    if (v === '' || this.type === 'TEXT') return;
    this.any = true;
    if (LEADING_ZERO.test(v)) this.type = 'TEXT';
    else {
      if (this.type === 'INTEGER' && (!INTEGER.test(v) || !Number.isSafeInteger(Number(v)))) this.type = 'REAL';
      if (this.type === 'REAL' && !REAL.test(v)) this.type = 'TEXT';
    }
  }

  get result(): ImportType {
    return this.any ? this.type : 'TEXT';
  }

  /** Nothing more can change it (a value was no number). */
  get settled(): boolean {
    return this.type === 'TEXT';
  }
}

/**
 * INTEGER when every value is a whole number, REAL when every value is a number, else TEXT (also
 * when a value has a leading zero: "007" is a code). Empty cells are NULL and say nothing.
 */
export function inferType(values: Iterable<string>): ImportType {
  const guess = new TypeGuess();
  for (const v of values) guess.see(v);
  return guess.result;
}

/**
 * A first row of distinct, non-empty names, none a number, is a header: most files have one, and
 * a first data row of text only is rare enough that the page shows the columns it made.
 */
function looksLikeHeader(first: readonly string[]): boolean {
  if (first.some((c) => c.trim() === '' || REAL.test(c.trim()))) return false;
  return new Set(first.map((c) => c.trim().toLowerCase())).size === first.length;
}

/**
 * A table file planned from its first rows and imported in one pass over its text, never holding
 * its rows (issue 26: a 20 MB CSV held as parsed rows took about 580 MB; and a second pass to
 * infer types from every value took a fifth of an import). The plan's types come from the first
 * SAMPLE_ROWS rows, or from the person (`types`); `eachRow` hands over each row, typed, in file
 * order, and checks every value against the types. A value that does not fit a sampled type
 * (a letter in a column of numbers after the sample) makes `typesSeen` differ from `columns`:
 * the importer then imports again with those, so nothing is ever converted by a wrong guess.
 */
export interface TablePlan {
  table: string;
  columns: Array<{ name: string; type: ImportType }>;
  /** False when the first row held data: the columns are named column_1, column_2, … */
  header: boolean;
  /** Whether the types were inferred from the first rows only (else every row, or the person's). */
  sampled: boolean;
  /** Parse errors, and the rows that did not fit, once `eachRow` has run. */
  problems: string[];
  /** Calls `row` with each row in file order (the same array each time); returns how many there were. */
  eachRow(row: (values: SqlValue[]) => void): number;
  /**
   * Of a sampled plan: the types every value of the last `eachRow` allows (inferred as from the
   * first rows). Of another: its own types (the person's, or from every value).
   */
  typesSeen(): ImportType[];
  /** The same file planned with other column types (the person's, or `typesSeen`). */
  withTypes(types: readonly ImportType[]): TablePlan;
}

/** Rows a file without a header is read ahead to learn its width (its longest row among them). */
const WIDTH_ROWS = 1000;

/** Rows the types are first inferred from (every row is checked while importing). */
export const SAMPLE_ROWS = 10_000;

/** `v` (trimmed, not empty) as the number a column of `type` stores; null when it is none. */
function numberOf(v: string, type: 'INTEGER' | 'REAL'): number | null {
  if (isInteger(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : type === 'REAL' ? n : null;
  }
  if (type === 'INTEGER' || LEADING_ZERO.test(v)) return null;
  return REAL.test(v) ? Number(v) : null;
}

/** INTEGER's test without a regular expression (most cells of a numeric column): digits, a sign, no leading zero. */
function isInteger(v: string): boolean {
  let i = v.charCodeAt(0) === 43 || v.charCodeAt(0) === 45 ? 1 : 0; // + -
  if (i === v.length) return false;
  if (v.charCodeAt(i) === 48) return v.length === i + 1; // "0", "-0"; "007" is a code
  for (; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** A row whose fields are all empty or blanks (a spreadsheet's trailing ",,,,"): not a row. */
function isBlank(row: readonly string[]): boolean {
  for (const f of row) if (f.length > 0 && f.trim().length > 0) return false;
  return true;
}

export interface PlanOptions {
  /**
   * Column types chosen by the person, in column order (null: inferred): kept, never inferred
   * again; a value that is no number of its type is kept as SQLite stores it.
   */
  types?: ReadonlyArray<ImportType | null>;
}

export function planTableFile(fileName: string, text: string, options: PlanOptions = {}): TablePlan {
  const body = text.replace(/^\uFEFF/, '');
  if (/\.(json|jsonl|ndjson)$/i.test(fileName))
    return withChosen(planOf(parseJsonTable(fileName, body)), options.types);
  // papaparse's own 'greedy' skipping joins every row to test it (a tenth of an import): blank rows are skipped here.
  const config = { skipEmptyLines: true, ...(/\.(tsv|tab)$/i.test(fileName) ? { delimiter: '\t' } : {}) };
  let delimiter = ',';
  let first: string[] | null = null;
  let header = false;
  let width = 0;
  let guesses: TypeGuess[] = [];
  const ahead: string[][] = [];
  const settleWidth = () => {
    width = Math.max(0, ...ahead.map((r) => r.length));
    guesses = Array.from({ length: width }, () => new TypeGuess());
    for (const r of ahead) guessRow(guesses, fit(r, width, delimiter));
    ahead.length = 0;
  };
  Papa.parse<string[]>(body, {
    ...config,
    preview: SAMPLE_ROWS,
    step: (r) => {
      delimiter = r.meta.delimiter || delimiter;
      const row = r.data;
      if (isBlank(row)) return;
      if (first === null) {
        first = row;
        header = looksLikeHeader(row);
        if (header) {
          width = row.length;
          guesses = Array.from({ length: width }, () => new TypeGuess());
          return;
        }
      }
      if (!header && width === 0) {
        ahead.push(row);
        if (ahead.length >= WIDTH_ROWS) settleWidth();
        return;
      }
      guessRow(guesses, fit(row, width, delimiter));
    },
  });
  const table = tableNameOf(fileName);
  if (first === null)
    return planOf({ table, columns: [], rows: [], problems: ['The file holds no rows.'], header: false });
  if (!header && width === 0) settleWidth();
  const names = columnNamesOf(header ? first : Array.from({ length: width }, () => ''));
  const chosen = options.types?.length === width ? options.types : Array<null>(width).fill(null);
  /** `sampled`: the columns not chosen have types from the first rows, and are checked on every row. */
  const plan = (types: readonly ImportType[], sampled: boolean): TablePlan => {
    const problems: string[] = [];
    let seen: TypeGuess[] = guesses;
    return {
      table,
      columns: names.map((name, c) => ({ name, type: types[c] })),
      header,
      sampled,
      problems,
      typesSeen: () => (sampled ? seen.map((g, c) => chosen[c] ?? g.result) : [...types]),
      withTypes: (next) => plan(next, false),
      eachRow(row) {
        problems.length = 0;
        // Types checked past the sample (only a sampled plan is imported again): from the
        // sample's guesses, so a value that fits its column's type needs no test of its own.
        seen = guesses.map((g) => g.copy());
        const watch = seen.map((g, c) => sampled && chosen[c] === null && !g.settled);
        let at = 0;
        let rows = 0;
        let misfits = 0;
        let errors = 0;
        const values: SqlValue[] = new Array<SqlValue>(width);
        Papa.parse<string[]>(body, {
          ...config,
          step: (r) => {
            const fields = r.data;
            at++;
            for (const e of r.errors)
              if (e.code !== 'UndetectableDelimiter' && ++errors <= LISTED) problems.push(`row ${at}: ${e.message}`);
            if ((header && at === 1) || isBlank(fields)) return;
            if (fields.length !== width) {
              misfits++;
              if (misfits <= LISTED)
                problems.push(
                  fields.length < width
                    ? `row ${at}: ${fields.length} fields, ${width} expected (the missing ones are NULL)`
                    : `row ${at}: ${fields.length} fields, ${width} expected (the extra ones are joined into the last column)`,
                );
            }
            const cells = fit(fields, width, delimiter);
            for (let c = 0; c < width; c++) {
              const type = types[c];
              const raw = cells[c];
              const v = type === 'TEXT' ? raw : raw.trim();
              if (v === '') {
                values[c] = null;
                continue;
              }
              // A value that is no number of its column's type is kept as it is (as SQLite would).
              const n = type === 'TEXT' ? null : numberOf(v, type);
              values[c] = n ?? v;
              if (n === null && watch[c]) {
                seen[c].see(type === 'TEXT' ? v.trim() : v);
                watch[c] = !seen[c].settled;
              }
            }
            row(values);
            rows++;
          },
        });
        if (errors > LISTED) problems.push(`${errors - LISTED} more rows the parser found fault with`);
        if (misfits > LISTED) problems.push(`${misfits - LISTED} more rows with too few or too many fields`);
        return rows;
      },
    };
  };
  return plan(
    guesses.map((g, c) => chosen[c] ?? g.result),
    chosen.some((t) => t === null),
  );
}

/** A row made `width` fields long: missing ones empty, extra ones joined into the last. */
function fit(row: string[], width: number, delimiter: string): string[] {
  return row.length === width
    ? row
    : row.length < width
      ? [...row, ...Array<string>(width - row.length).fill('')]
      : [...row.slice(0, width - 1), row.slice(width - 1).join(delimiter)];
}

function guessRow(guesses: TypeGuess[], cells: readonly string[]): void {
  for (let c = 0; c < guesses.length; c++) guesses[c].see(cells[c].trim());
}

/** A JSON plan with the person's types: a value that is no number of its type is kept as it is. */
function withChosen(plan: TablePlan, types: ReadonlyArray<ImportType | null> | undefined): TablePlan {
  if (!types || types.length !== plan.columns.length) return plan;
  return { ...plan, columns: plan.columns.map((c, i) => ({ ...c, type: types[i] ?? c.type })) };
}

/** A table already held whole (JSON) as a plan: its types come from every value. */
function planOf(t: ParsedTable): TablePlan {
  const plan: TablePlan = {
    ...t,
    sampled: false,
    eachRow: (row) => (t.rows.forEach((r) => row(r)), t.rows.length),
    typesSeen: () => plan.columns.map((c) => c.type),
    withTypes: (types) => withChosen(plan, types),
  };
  return plan;
}

/** The whole table at once (small files, tests): the plan, and its rows collected. */
export function parseTableFile(fileName: string, text: string): ParsedTable {
  const plan = planTableFile(fileName, text);
  const rows: SqlValue[][] = [];
  // eachRow hands over the same array each time.
  plan.eachRow((r) => rows.push([...r]));
  return { table: plan.table, columns: plan.columns, rows, problems: plan.problems, header: plan.header };
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
