// What the page shows of table files before importing them (issue 26: "types inferred and shown,
// editable before import"): the table each becomes, its columns with the types the first rows
// suggest, and those rows; how its first row was read and why, and its encoding (issue 35), so
// the person sees and can change both. Made from the first bytes of each file only, so a large
// file is previewed at once; the import reads every row and checks every value (table-file.ts).

import { decodeTable } from './decode-text';
import type { EncodingChoice, EncodingUsed, HeaderChoice } from './imported-file';
import { JSON_FILE, planTableFile, TooManyColumnsError, type ImportType, type TablePlan } from './table-file';

/** Bytes of a file read for its preview. */
export const PREVIEW_BYTES = 256 * 1024;
/** Rows shown. */
const PREVIEW_ROWS = 5;

export interface PreviewOptions {
  header?: HeaderChoice;
  encoding?: EncodingChoice;
}

export interface TablePreview {
  file: string;
  table: string;
  /** Why the table's name is not the file's own, when it is not. */
  tableNote?: string;
  /** False when the first row held data (columns named by position). */
  header: boolean;
  /** CSV and TSV: the evidence about the first row and what was asked (see header-evidence.ts). */
  headerEvidence?: TablePlan['headerEvidence'];
  /** JSON: the keys name the columns. */
  json: boolean;
  columns: Array<{ name: string; type: ImportType }>;
  /** The first rows as the file has them (text; empty cells ''). */
  rows: string[][];
  /** A file whose columns are known only once it is read whole (a JSON array): no types to choose. */
  typesChosenOnImport: boolean;
  /** The encoding its text was read in, and why. */
  encoding: EncodingUsed;
  /** The encoding asked for (`auto` unless the person chose one). */
  encodingChoice: EncodingChoice;
}

/**
 * The preview of `fileName` from its first bytes (`whole`: they are all of it). A cut file is
 * read up to its last line end, so no row or character is half there. A file wider than SQLite
 * allows is refused (TooManyColumnsError) before anything is drawn of it.
 */
export function previewTableFile(
  fileName: string,
  head: Uint8Array,
  whole: boolean,
  options: PreviewOptions = {},
): TablePreview {
  const encodingChoice = options.encoding ?? 'auto';
  const { text: decoded, ...encoding } = decodeTable(head, encodingChoice, !whole);
  const end = whole ? -1 : decoded.lastIndexOf('\n');
  const text = end >= 0 ? decoded.slice(0, end + 1) : decoded;
  const common = { file: fileName, json: JSON_FILE.test(fileName), encoding, encodingChoice };
  if (/\.json$/i.test(fileName) && !whole && /^[[{]/.test(text.trimStart())) {
    const { table, tableNote } = planTableFile(fileName, '[]');
    return {
      ...common,
      table,
      ...(tableNote ? { tableNote } : {}),
      header: true,
      columns: [],
      rows: [],
      typesChosenOnImport: true,
    };
  }
  let plan: TablePlan;
  try {
    plan = planTableFile(fileName, text, { header: options.header });
  } catch (e) {
    // No line end in the bytes read: the first row goes on, so it has at least these columns.
    if (e instanceof TooManyColumnsError && !whole && end < 0) throw new TooManyColumnsError(e.file, e.columns, true);
    throw e;
  }
  const rows: string[][] = [];
  try {
    // Read as text, the cells show as the file has them ("19.90", not 19.9).
    plan.withTypes(plan.columns.map(() => 'TEXT')).eachRow((values) => {
      if (rows.length < PREVIEW_ROWS) rows.push(values.map((v) => (v === null ? '' : String(v))));
      if (rows.length >= PREVIEW_ROWS) throw STOP;
    });
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return {
    ...common,
    table: plan.table,
    ...(plan.tableNote ? { tableNote: plan.tableNote } : {}),
    header: plan.header,
    ...(plan.headerEvidence ? { headerEvidence: plan.headerEvidence } : {}),
    columns: plan.columns,
    rows,
    typesChosenOnImport: false,
  };
}

const STOP = new Error('preview rows read');

/**
 * The types to import with: the person's choice where it differs from the preview's, null
 * (inferred from the whole file) elsewhere; undefined when nothing was changed.
 */
export function chosenTypes(
  preview: TablePreview,
  choice: ReadonlyArray<ImportType | null>,
): Array<ImportType | null> | undefined {
  const types = preview.columns.map((c, i) => (choice[i] && choice[i] !== c.type ? choice[i] : null));
  return types.some((t) => t !== null) ? types : undefined;
}
