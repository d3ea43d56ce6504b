// Benchmark question files and their databases, for `dowser eval-tools`.
//
// Spider layout: `<data>/dev.json` (db_id, question, query) and `<data>/database/<db_id>/<db_id>.sqlite`.
// Spider-Syn and similar variants are Spider files whose question field is `SpiderSynQuestion`.
// BIRD layout: a question file (`dev.json`, or the mini-dev `mini_dev_sqlite.json`) with
// question_id, db_id, question, evidence, SQL; databases in `<databases>/<db_id>/<db_id>.sqlite`
// with column descriptions in `<db_id>/database_description/<table>.csv` next to them (or in a
// separate `--descriptions` folder with the same `<db_id>/database_description/` layout).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import Papa from 'papaparse';
import type { ColumnDescription, DescriptionMap } from '../../core/eval/types';
import { DowserError } from '../../core/errors';

export type DatasetKind = 'spider' | 'bird';

export interface EvalQuestion {
  /** Position in the question file (0-based). */
  index: number;
  dbId: string;
  question: string;
  /** BIRD's hint text ('' for Spider). */
  evidence: string;
  sql: string;
}

export interface DatasetSource {
  dataset: DatasetKind;
  questionsFile: string;
  questions: EvalQuestion[];
  /** Where `<db_id>.sqlite` should be (it may be missing). */
  databasePath(dbId: string): string;
  /** The `database_description` folder of a database, when there is one. */
  descriptionsDir(dbId: string): string | null;
}

export interface DatasetOptions {
  dataset: DatasetKind;
  /** The dataset folder. */
  data: string;
  /** A question file to use instead of the default one. */
  questions?: string;
  /** BIRD: the folder holding `<db_id>/<db_id>.sqlite` (default: dev_databases/ or databases/ under data). */
  databases?: string;
  /** BIRD: a folder holding `<db_id>/database_description/*.csv`, when not next to the databases. */
  descriptions?: string;
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();
const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile();

function readJsonArray(path: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = decodeText(readFileSync(path));
  } catch (e) {
    throw new DowserError('open_failed', `Cannot read the question file "${path}": ${e instanceof Error ? e.message : String(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new DowserError('open_failed', `The question file "${path}" is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!Array.isArray(data)) throw new DowserError('open_failed', `The question file "${path}" should hold a JSON array of questions.`);
  return data as Record<string, unknown>[];
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Questions of a Spider- or BIRD-format file; entries without a database, question or SQL are refused. */
export function parseQuestions(rows: Record<string, unknown>[], path: string): EvalQuestion[] {
  return rows.map((r, index) => {
    // Spider-Syn keeps the original as SpiderQuestion and the rewritten one as SpiderSynQuestion.
    const question = text(r.SpiderSynQuestion) || text(r.question);
    const sql = text(r.query) || text(r.SQL);
    const dbId = text(r.db_id);
    if (!dbId || !question || !sql) {
      throw new DowserError('open_failed', `Question ${index} of "${path}" lacks db_id, question (or SpiderSynQuestion) or query (or SQL).`);
    }
    return { index, dbId, question, evidence: text(r.evidence), sql };
  });
}

function firstExisting(paths: string[], test: (p: string) => boolean): string | null {
  return paths.find(test) ?? null;
}

export function loadDataset(options: DatasetOptions): DatasetSource {
  const { data } = options;
  if (!isDir(data)) throw new DowserError('open_failed', `The dataset folder "${data}" does not exist.`);
  if (options.dataset === 'spider') {
    const questionsFile = options.questions ?? join(data, 'dev.json');
    if (!isFile(questionsFile)) throw new DowserError('open_failed', `No question file at "${questionsFile}" (give one with --questions).`);
    return {
      dataset: 'spider',
      questionsFile,
      questions: parseQuestions(readJsonArray(questionsFile), questionsFile),
      databasePath: (db) => join(data, 'database', db, `${db}.sqlite`),
      descriptionsDir: () => null,
    };
  }
  const questionsFile = options.questions ?? firstExisting(['dev.json', 'mini_dev_sqlite.json', 'dev/dev.json'].map((f) => join(data, f)), isFile);
  if (!questionsFile || !isFile(questionsFile)) {
    throw new DowserError('open_failed', `No BIRD question file in "${data}" (looked for dev.json and mini_dev_sqlite.json; give one with --questions).`);
  }
  const databases = options.databases ?? firstExisting(['dev_databases', 'databases', 'dev/dev_databases'].map((f) => join(data, f)), isDir) ?? data;
  return {
    dataset: 'bird',
    questionsFile,
    questions: parseQuestions(readJsonArray(questionsFile), questionsFile),
    databasePath: (db) => join(databases, db, `${db}.sqlite`),
    descriptionsDir: (db) =>
      firstExisting(
        [options.descriptions && join(options.descriptions, db, 'database_description'), join(databases, db, 'database_description')].filter((p): p is string => !!p),
        isDir,
      ),
  };
}

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
 * BIRD column descriptions of one database: `<dir>/<table>.csv` with the header
 * `original_column_name,column_name,column_description,data_format,value_description`.
 * Keys are the file name without `.csv` (as the table is spelled there) and the original
 * column name, both as written; compare case-insensitively when matching to a schema. Line
 * ends inside values become `\n`; fields are trimmed.
 */
export function readBirdDescriptions(dir: string): DescriptionMap {
  const out: DescriptionMap = new Map();
  const files = readdirSync(dir).filter((f) => /\.csv$/i.test(f)).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  for (const file of files) {
    const content = decodeText(readFileSync(join(dir, file))).replace(/\r\n?/g, '\n');
    const parsed = Papa.parse<Record<string, string>>(content, {
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
    out.set(basename(file).replace(/\.csv$/i, ''), columns);
  }
  return out;
}
