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
import { decodeText, parseBirdDescriptionCsv, type DescriptionMap } from '../../core/descriptions/bird-csv';
import { DowserError } from '../../core/errors';
import { conversationTurns } from '../../core/eval/conversations';

export type DatasetKind = 'spider' | 'bird';

/** SParC and CoSQL: interactions of follow-up questions over the Spider databases (issue 23). */
export type ConversationKind = 'sparc' | 'cosql';

export const isConversational = (d: string): d is ConversationKind => d === 'sparc' || d === 'cosql';

export interface EvalQuestion {
  /** Position in the question file (0-based). */
  index: number;
  dbId: string;
  question: string;
  /** BIRD's hint text ('' for Spider). */
  evidence: string;
  sql: string;
  /** SParC / CoSQL: the interaction (0-based in dev.json) and the turn in it. */
  interaction?: number;
  turn?: number;
}

export interface DatasetSource {
  dataset: DatasetKind | ConversationKind;
  questionsFile: string;
  questions: EvalQuestion[];
  /** Where `<db_id>.sqlite` should be (it may be missing). */
  databasePath(dbId: string): string;
  /** The `database_description` folder of a database, when there is one. */
  descriptionsDir(dbId: string): string | null;
}

export interface DatasetOptions {
  dataset: DatasetKind | ConversationKind;
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
    throw new DowserError(
      'open_failed',
      `Cannot read the question file "${path}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new DowserError(
      'open_failed',
      `The question file "${path}" is not JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  if (!Array.isArray(data))
    throw new DowserError('open_failed', `The question file "${path}" should hold a JSON array of questions.`);
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
      throw new DowserError(
        'open_failed',
        `Question ${index} of "${path}" lacks db_id, question (or SpiderSynQuestion) or query (or SQL).`,
      );
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
  if (isConversational(options.dataset)) return loadConversations(options, options.dataset);
  if (options.dataset === 'spider') {
    const questionsFile = options.questions ?? join(data, 'dev.json');
    if (!isFile(questionsFile))
      throw new DowserError('open_failed', `No question file at "${questionsFile}" (give one with --questions).`);
    return {
      dataset: 'spider',
      questionsFile,
      questions: parseQuestions(readJsonArray(questionsFile), questionsFile),
      databasePath: (db) => join(data, 'database', db, `${db}.sqlite`),
      descriptionsDir: () => null,
    };
  }
  const questionsFile =
    options.questions ??
    firstExisting(
      ['dev.json', 'mini_dev_sqlite.json', 'dev/dev.json'].map((f) => join(data, f)),
      isFile,
    );
  if (!questionsFile || !isFile(questionsFile)) {
    throw new DowserError(
      'open_failed',
      `No BIRD question file in "${data}" (looked for dev.json and mini_dev_sqlite.json; give one with --questions).`,
    );
  }
  const databases =
    options.databases ??
    firstExisting(
      ['dev_databases', 'databases', 'dev/dev_databases'].map((f) => join(data, f)),
      isDir,
    ) ??
    data;
  return {
    dataset: 'bird',
    questionsFile,
    questions: parseQuestions(readJsonArray(questionsFile), questionsFile),
    databasePath: (db) => join(databases, db, `${db}.sqlite`),
    descriptionsDir: (db) =>
      firstExisting(
        [
          options.descriptions && join(options.descriptions, db, 'database_description'),
          join(databases, db, 'database_description'),
        ].filter((p): p is string => !!p),
        isDir,
      ),
  };
}

/**
 * SParC / CoSQL: `<data>/dev.json` (or --questions) with `<data>/dev_gold.txt` beside it; the
 * databases are Spider's, in `--databases` (or `<data>/database`).
 */
function loadConversations(options: DatasetOptions, dataset: ConversationKind): DatasetSource {
  const { data } = options;
  const questionsFile = options.questions ?? join(data, 'dev.json');
  const goldFile = join(data, 'dev_gold.txt');
  for (const f of [questionsFile, goldFile])
    if (!isFile(f))
      throw new DowserError(
        'open_failed',
        `No ${basename(f)} in "${data}" (${dataset} needs dev.json and dev_gold.txt).`,
      );
  const databases = options.databases ?? join(data, 'database');
  if (!isDir(databases))
    throw new DowserError(
      'open_failed',
      `No database folder at "${databases}": give Spider's with --databases (e.g. ../shared/datasets/spider/database).`,
    );
  let turns;
  try {
    turns = conversationTurns(readJsonArray(questionsFile), decodeText(readFileSync(goldFile)));
  } catch (e) {
    throw new DowserError(
      'open_failed',
      `${dataset} files in "${data}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return {
    dataset,
    questionsFile,
    questions: turns.map((t, index) => ({
      index,
      dbId: t.dbId,
      question: t.question,
      evidence: '',
      sql: t.goldSql,
      interaction: t.interaction,
      turn: t.turn,
    })),
    databasePath: (db) => join(databases, db, `${db}.sqlite`),
    descriptionsDir: () => null,
  };
}

/**
 * BIRD column descriptions of one database: `<dir>/<table>.csv` with the header
 * `original_column_name,column_name,column_description,data_format,value_description`.
 * Keys are the file name without `.csv` (as the table is spelled there) and the original
 * column name, both as written; compare case-insensitively when matching to a schema. Line
 * ends inside values become `\n`; fields are trimmed.
 */
export function readBirdDescriptions(dir: string): DescriptionMap {
  const out: DescriptionMap = new Map();
  const files = readdirSync(dir)
    .filter((f) => /\.csv$/i.test(f))
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  for (const file of files) {
    out.set(basename(file).replace(/\.csv$/i, ''), parseBirdDescriptionCsv(decodeText(readFileSync(join(dir, file)))));
  }
  return out;
}
