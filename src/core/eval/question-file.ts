// A person's question file for the Evaluate view: question + reference SQL pairs, as JSON (a
// list of objects, or `{ "questions": [...] }`) or CSV with a header row. Field names follow the
// benchmarks so their files load as they are: question (or SpiderSynQuestion), sql (or query,
// SQL), and optionally hints (or evidence) and id (or question_id). Everything in the file is
// untrusted text: sizes are capped and every problem is reported with its row.

import Papa from 'papaparse';

export interface QuestionPair {
  id: string;
  question: string;
  sql: string;
  hints: string;
}

export const MAX_QUESTIONS = 1000;
export const MAX_FILE_CHARS = 5_000_000;

export class QuestionFileError extends Error {}

const pick = (row: Record<string, unknown>, names: string[]): string => {
  for (const [key, value] of Object.entries(row)) {
    if (names.includes(key.trim().toLowerCase()) && (typeof value === 'string' || typeof value === 'number'))
      return String(value).trim();
  }
  return '';
};

function toPairs(rows: Record<string, unknown>[], where: (i: number) => string): QuestionPair[] {
  if (rows.length === 0) throw new QuestionFileError('The file holds no questions.');
  if (rows.length > MAX_QUESTIONS)
    throw new QuestionFileError(`The file holds ${rows.length} questions; at most ${MAX_QUESTIONS} run in the page.`);
  const seen = new Set<string>();
  return rows.map((row, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row))
      throw new QuestionFileError(`${where(i)} is not an object with a question and its SQL.`);
    const question = pick(row, ['spidersynquestion']) || pick(row, ['question']);
    const sql = pick(row, ['sql', 'query', 'gold', 'reference']);
    if (!question) throw new QuestionFileError(`${where(i)} has no question.`);
    if (!sql) throw new QuestionFileError(`${where(i)} has no reference SQL (a "sql" or "query" field).`);
    let id = pick(row, ['id', 'question_id']) || String(i + 1);
    if (seen.has(id)) id = `${id}@${i + 1}`;
    seen.add(id);
    return { id, question, sql, hints: pick(row, ['hints', 'evidence']) };
  });
}

export function parseQuestionFile(name: string, text: string): QuestionPair[] {
  if (text.length > MAX_FILE_CHARS)
    throw new QuestionFileError(`The file is larger than ${MAX_FILE_CHARS / 1_000_000} MB of text.`);
  const body = text.replace(/^\uFEFF/, '');
  const looksJson = /\.json$/i.test(name) || /^\s*[[{]/.test(body);
  if (looksJson) {
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch (e) {
      throw new QuestionFileError(`The file is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    const list = Array.isArray(data) ? data : (data as { questions?: unknown } | null)?.questions;
    if (!Array.isArray(list))
      throw new QuestionFileError(
        'The JSON should be a list of {"question", "sql"} objects (or {"questions": [...]}).',
      );
    return toPairs(list as Record<string, unknown>[], (i) => `Question ${i + 1}`);
  }
  const parsed = Papa.parse<Record<string, string>>(body, { header: true, skipEmptyLines: 'greedy' });
  const fields = (parsed.meta.fields ?? []).map((f) => f.trim().toLowerCase());
  if (!fields.includes('question') || !fields.some((f) => ['sql', 'query'].includes(f)))
    throw new QuestionFileError('The CSV needs a header row with a "question" column and a "sql" (or "query") column.');
  const bad = parsed.errors.find((e) => e.type !== 'FieldMismatch' || e.code !== 'TooFewFields');
  if (bad) throw new QuestionFileError(`Row ${(bad.row ?? 0) + 2} of the CSV: ${bad.message}`);
  return toPairs(parsed.data, (i) => `Row ${i + 2}`);
}
