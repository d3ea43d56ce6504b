// The parse worker's calls (worker/parse.worker.ts), apart from it so tests run them in process:
// each reads a file the person picked and hands it to its core parser (issue item 11: parsing a
// large import on the page's thread froze it for seconds; issue 35, item 14: so is a table
// file's preview, a 100,000-column one among them). Transport only. A parser's error comes
// back as its message: an error's class does not cross a worker's boundary.

import { decodeText } from '../core/descriptions/bird-csv';
import {
  planDescriptionImport,
  type DescriptionFile,
  type ImportPlan,
  type SchemaNames,
} from '../core/descriptions/import';
import { parseQuestionFile, type QuestionPair } from '../core/eval/question-file';
import { examplesFromJson, type ExamplesFile } from '../core/examples/examples';
import { runFromJson, type ExportableRun } from '../core/export/run-export';
import { PREVIEW_BYTES, previewTableFile, type PreviewOptions, type TablePreview } from '../core/import/table-preview';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function outcome<T>(parse: () => Promise<T>): Promise<Parsed<T>> {
  try {
    return { ok: true, value: await parse() };
  } catch (e) {
    return { ok: false, message: messageOf(e) };
  }
}

/** The file's text as `File.text()` gives it; a file that cannot be read says so. */
async function textOf(file: Blob): Promise<string> {
  try {
    return await file.text();
  } catch (e) {
    throw new Error(`The file could not be read (${messageOf(e)}).`, { cause: e });
  }
}

export const parseApi = {
  /** A saved run (`dowser-run/1`): JSON.parse and the run file's schema. */
  runFile: (file: Blob): Promise<Parsed<ExportableRun>> => outcome(async () => runFromJson(await textOf(file))),

  /** Confirmed examples exported from a database (`dowser-examples`). */
  examplesFile: (file: Blob): Promise<Parsed<ExamplesFile>> =>
    outcome(async () => examplesFromJson(await textOf(file))),

  /** An Evaluate question file, JSON or CSV. */
  questionFile: (file: File): Promise<Parsed<QuestionPair[]>> =>
    outcome(async () => parseQuestionFile(file.name, await textOf(file))),

  /** A table file's preview from its first bytes (core/import/table-preview.ts), read as `options` say. */
  tablePreview: (file: File, options: PreviewOptions): Promise<Parsed<TablePreview>> =>
    outcome(async () => {
      let head: Uint8Array;
      try {
        head = new Uint8Array(await file.slice(0, PREVIEW_BYTES).arrayBuffer());
      } catch (e) {
        throw new Error(`The file could not be read (${messageOf(e)}).`, { cause: e });
      }
      return previewTableFile(file.name, head, file.size <= PREVIEW_BYTES, options);
    }),

  /** BIRD description CSVs matched to the tables and columns named (only .csv files are read). */
  descriptionPlan: (schema: SchemaNames, files: File[]): Promise<Parsed<ImportPlan>> =>
    outcome(async () => {
      const readable: DescriptionFile[] = [];
      const unread: ImportPlan['skipped'] = [];
      for (const f of files) {
        try {
          const text = /\.csv$/i.test(f.name) ? decodeText(new Uint8Array(await f.arrayBuffer())) : '';
          readable.push({ name: f.name, text });
        } catch (e) {
          unread.push({ file: f.name, reason: `could not be read: ${messageOf(e)}` });
        }
      }
      const plan = planDescriptionImport(schema, readable);
      plan.skipped.push(...unread);
      return plan;
    }),
};

export type ParseApi = typeof parseApi;
