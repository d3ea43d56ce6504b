// What the page shows of table files before importing them (issue 26: "types inferred and shown,
// editable before import"): the table each becomes, its columns with the types the first rows
// suggest, and those rows. Made from the first bytes of each file only, so a large file is
// previewed at once; the import reads every row and checks every value (table-file.ts).

import { decodeText } from './decode-text';
import { planTableFile, type ImportType } from './table-file';

/** Bytes of a file read for its preview. */
export const PREVIEW_BYTES = 256 * 1024;
/** Rows shown. */
const PREVIEW_ROWS = 5;

export interface TablePreview {
  file: string;
  table: string;
  /** False when the first row held data (columns named by position). */
  header: boolean;
  /** JSON: the keys name the columns. */
  json: boolean;
  columns: Array<{ name: string; type: ImportType }>;
  /** The first rows as the file has them (text; empty cells ''). */
  rows: string[][];
  /** A file whose columns are known only once it is read whole (a JSON array): no types to choose. */
  typesChosenOnImport: boolean;
}

/**
 * The preview of `fileName` from its first bytes (`whole`: they are all of it). A cut file is
 * read up to its last line end, so no row or character is half there.
 */
export function previewTableFile(fileName: string, head: Uint8Array, whole: boolean): TablePreview {
  let bytes = head;
  if (!whole) {
    const end = head.lastIndexOf(0x0a);
    bytes = end >= 0 ? head.subarray(0, end + 1) : head;
  }
  const text = decodeText(bytes);
  if (/\.json$/i.test(fileName) && !whole && text.trimStart().startsWith('['))
    return {
      file: fileName,
      table: planTableFile(fileName, '[]').table,
      header: true,
      json: true,
      columns: [],
      rows: [],
      typesChosenOnImport: true,
    };
  const plan = planTableFile(fileName, text);
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
    file: fileName,
    table: plan.table,
    header: plan.header,
    json: /\.(json|jsonl|ndjson)$/i.test(fileName),
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
