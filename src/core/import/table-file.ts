// A CSV, TSV or JSON file as a table (issue 26: most people's own data is not SQLite): parsed,
// its header decided on evidence (header-evidence.ts) or by the person, each column's type
// inferred from its values (column-types.ts), and every row kept — a row with too few or too many
// fields is filled or joined and reported with its row number, never dropped. Pure (papaparse is
// plain JavaScript), so the page's worker and the CLI import alike.

import Papa from 'papaparse';
import type { SqlValue } from '../types';
import { numberOf, roundedTo, TypeGuess, type ImportType } from './column-types';
import { EVIDENCE_ROWS, headerEvidence, type HeaderEvidence } from './header-evidence';
import type { HeaderChoice } from './imported-file';
import { parseJsonTable } from './json-table';
import { columnNamesOf, tableNameFor } from './table-name';

export type { ImportType } from './column-types';
export { inferType } from './column-types';
export { columnNamesOf, tableNameOf } from './table-name';

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

/** JSON and JSON Lines: their keys name the columns (no first row to decide about). */
export const JSON_FILE = /\.(json|jsonl|ndjson)$/i;

/**
 * Columns SQLite allows in a table (SQLITE_MAX_COLUMN, 2,000 unless compiled otherwise; sql.js
 * keeps it: CREATE TABLE with 2,001 columns fails "too many columns"). A wider file is refused
 * before its preview or its import (issue 35, item 14).
 */
export const MAX_COLUMNS = 2000;

/** A file with more columns than SQLite allows; `atLeast`: its first row was cut short. */
export class TooManyColumnsError extends Error {
  constructor(
    readonly file: string,
    readonly columns: number,
    atLeast = false,
  ) {
    super(
      `${file} has ${atLeast ? 'at least ' : ''}${columns.toLocaleString('en-US')} columns; SQLite allows at most ${MAX_COLUMNS.toLocaleString('en-US')} in a table. Split the file, or keep the columns you need.`,
    );
    this.name = 'TooManyColumnsError';
  }
}

/** Problems listed one by one; past this they are counted. */
const LISTED = 20;

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
  /** Why the table's name is not the file's own (SQLite keeps sqlite_… names), when it is not. */
  tableNote?: string;
  columns: Array<{ name: string; type: ImportType }>;
  /** False when the first row held data: the columns are named column_1, column_2, … */
  header: boolean;
  /** CSV and TSV: what the first row looked like against the rows below it, and what was asked. */
  headerEvidence?: HeaderEvidence & { choice: HeaderChoice };
  /** Whether the types were inferred from the first rows only (else every row, or the person's). */
  sampled: boolean;
  /** Parse errors, the rows that did not fit, and values a type could not keep, once `eachRow` has run. */
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

/** Rows read ahead before the header is decided, and a headerless file's width (its longest row among them). */
const WIDTH_ROWS = 1000;

/** Rows the types are first inferred from (every row is checked while importing). */
export const SAMPLE_ROWS = 10_000;

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
  /** Whether the first row names the columns; `auto` (the default) decides on evidence. */
  header?: HeaderChoice;
}

/** Values of a REAL column that a double rounds: how many, and the first with its row. */
interface Rounding {
  count: number;
  row: number;
  written: string;
  stored: string;
}

export function planTableFile(fileName: string, text: string, options: PlanOptions = {}): TablePlan {
  const body = text.replace(/^\uFEFF/, '');
  const { name: table, note: tableNote } = tableNameFor(fileName);
  const named = { table, ...(tableNote ? { tableNote } : {}) };
  if (JSON_FILE.test(fileName)) {
    const json = parseJsonTable(fileName, body);
    if (json.columns.length > MAX_COLUMNS) throw new TooManyColumnsError(fileName, json.columns.length);
    return withChosen(planOf({ ...named, ...json, header: true }), options.types);
  }
  const choice = options.header ?? 'auto';
  // papaparse's own 'greedy' skipping joins every row to test it (a tenth of an import): blank rows are skipped here.
  const config = { skipEmptyLines: true, ...(/\.(tsv|tab)$/i.test(fileName) ? { delimiter: '\t' } : {}) };
  const { delimiter, header, evidence, width, names, guesses } = sampleOf(fileName, body, config, choice);
  const headerEvidenceOf = { ...evidence, choice };
  if (width === 0)
    return {
      ...planOf({ ...named, columns: [], rows: [], problems: ['The file holds no rows.'], header: false }),
      headerEvidence: headerEvidenceOf,
    };
  const chosen = options.types?.length === width ? options.types : Array<null>(width).fill(null);
  /** Whole numbers beyond 64 bits met in each column by any pass (they made it TEXT). */
  const beyond: Array<string | null> = guesses.map((g) => g.beyond);
  /** `sampled`: the columns not chosen have types from the first rows, and are checked on every row. */
  const plan = (types: readonly ImportType[], sampled: boolean): TablePlan => {
    const problems: string[] = [];
    let seen: TypeGuess[] = guesses;
    return {
      ...named,
      columns: names.map((name, c) => ({ name, type: types[c] })),
      header,
      headerEvidence: headerEvidenceOf,
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
        const rounded: Array<Rounding | undefined> = [];
        let at = 0;
        let rows = 0;
        let misfits = 0;
        let errors = 0;
        let headerRow = header;
        const values: SqlValue[] = new Array<SqlValue>(width);
        Papa.parse<string[]>(body, {
          ...config,
          step: (r) => {
            const fields = r.data;
            at++;
            for (const e of r.errors)
              if (e.code !== 'UndetectableDelimiter' && ++errors <= LISTED) problems.push(`row ${at}: ${e.message}`);
            if (isBlank(fields)) return;
            if (headerRow) {
              headerRow = false;
              return;
            }
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
              if (type === 'REAL' && typeof n === 'number' && v.length > 15) {
                const stored = roundedTo(v, n);
                if (stored !== null) {
                  const had = rounded[c];
                  if (had) had.count++;
                  else rounded[c] = { count: 1, row: at, written: v, stored };
                }
              }
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
        for (let c = 0; c < width; c++) beyond[c] ??= seen[c].beyond;
        problems.push(...valueNotes(names, types, chosen, beyond, rounded));
        return rows;
      },
    };
  };
  return plan(
    guesses.map((g, c) => chosen[c] ?? g.result),
    chosen.some((t) => t === null),
  );
}

/** What the first rows say: the delimiter, the header (as asked or decided), the width, the names, the types. */
interface Sample {
  delimiter: string;
  header: boolean;
  evidence: HeaderEvidence;
  width: number;
  names: string[];
  guesses: TypeGuess[];
}

function sampleOf(fileName: string, body: string, config: Papa.ParseConfig, choice: HeaderChoice): Sample {
  let delimiter = ',';
  let header = false;
  let evidence: HeaderEvidence = { verdict: 'unsure', reason: 'the file holds no rows' };
  let width = 0;
  let guesses: TypeGuess[] = [];
  let decided = false;
  let tooWide = 0;
  let names: string[] = [];
  const ahead: string[][] = [];
  // The header is decided once the first rows are read: the first compared with those below it.
  const decide = () => {
    decided = true;
    if (ahead.length === 0) return;
    const [first, ...below] = ahead;
    evidence = headerEvidence(first, below.slice(0, EVIDENCE_ROWS));
    header = choice === 'yes' || (choice === 'auto' && evidence.verdict === 'header');
    width = header ? first.length : Math.max(...ahead.map((r) => r.length));
    names = columnNamesOf(header ? first : Array.from({ length: width }, () => ''));
    guesses = Array.from({ length: width }, () => new TypeGuess());
    for (const r of header ? below : ahead) guessRow(guesses, fit(r, width, delimiter));
    ahead.length = 0;
  };
  Papa.parse<string[]>(body, {
    ...config,
    preview: SAMPLE_ROWS,
    step: (r, parser) => {
      delimiter = r.meta.delimiter || delimiter;
      const row = r.data;
      if (isBlank(row)) return;
      if (decided) return guessRow(guesses, fit(row, width, delimiter));
      // Refused before anything is made of it: SQLite could not hold the table.
      if (row.length > MAX_COLUMNS && ahead.length === 0) {
        tooWide = row.length;
        parser.abort();
        return;
      }
      ahead.push(row);
      if (ahead.length >= WIDTH_ROWS) decide();
    },
  });
  if (tooWide) throw new TooManyColumnsError(fileName, tooWide);
  if (!decided) decide();
  if (width > MAX_COLUMNS) throw new TooManyColumnsError(fileName, width);
  return { delimiter, header, evidence, width, names, guesses };
}

/** Values a column's type could not keep as written: a whole number beyond 64 bits (TEXT), digits a REAL rounds. */
function valueNotes(
  names: readonly string[],
  types: readonly ImportType[],
  chosen: ReadonlyArray<ImportType | null>,
  beyond: ReadonlyArray<string | null>,
  rounded: ReadonlyArray<Rounding | undefined>,
): string[] {
  const notes: string[] = [];
  for (let c = 0; c < names.length; c++) {
    const big = beyond[c];
    if (big !== null && types[c] === 'TEXT' && chosen[c] === null)
      notes.push(
        `column ${names[c]}: ${big} is beyond the 64-bit integers SQLite stores: the column is TEXT so that every value is kept as written`,
      );
    const r = rounded[c];
    if (r)
      notes.push(
        `column ${names[c]}: ${r.count === 1 ? '1 value has' : `${r.count} values have`} more digits than a REAL keeps and ${r.count === 1 ? 'was' : 'were'} rounded (row ${r.row}: ${r.written} → ${r.stored}); import the column as TEXT to keep the digits`,
      );
  }
  return notes;
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
function planOf(t: ParsedTable & { tableNote?: string }): TablePlan {
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
export function parseTableFile(fileName: string, text: string, options: PlanOptions = {}): ParsedTable {
  const plan = planTableFile(fileName, text, options);
  const rows: SqlValue[][] = [];
  // eachRow hands over the same array each time.
  plan.eachRow((r) => rows.push([...r]));
  return { table: plan.table, columns: plan.columns, rows, problems: plan.problems, header: plan.header };
}
