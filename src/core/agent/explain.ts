// The closing check (Benchmark study: SQL-to-text): a short call, without tools, that says in
// plain words what the final SQL returns and whether that answers the question, and when it does
// not, what is wrong — a problem the caller acts on (issue 22: a verdict nothing reads is a
// request wasted). It sees up to 20 rows and the row count: five were too few to judge ordering,
// duplicates or a set operation. The question, hints and result cells are quoted as data.

import { completeChat } from '../llm/complete';
import type { ChatModel, ChatResponse } from '../llm/types';
import { jsonData, quotedData, rowData, sqlData } from '../tools/quote-data';
import type { SqlValue } from '../types';
import type { Verdict } from './events';
import { DATA_RULE } from '../prompt/data-rule';
import { inDialect } from '../dialect/prompt-text';
import type { DialectId } from '../dialect/types';

export const CHECK_ROWS = 20;

// The verdict comes first: small models keep a short first line better than a last one.
/** How the check's system prompt starts (the gold provider recognises the check by it). */
export const CHECK_SYSTEM_START = "You check whether a SQLite query's result answers a question";

/** The check's first words on any engine (they name the engine). */
export const CHECK_SYSTEM_PATTERN = /You check whether a [\w ]+ query's result answers a question/;

const CHECK_SYSTEM_AT_START = new RegExp(`^${CHECK_SYSTEM_PATTERN.source}`);

/** Whether a system prompt is the check's. */
export const isCheckSystem = (system: string): boolean => CHECK_SYSTEM_AT_START.test(system);

const SYSTEM = `${CHECK_SYSTEM_START}, and explain it to people who do not read SQL.
Reply in exactly this format:
Verdict: match, mismatch or unsure (does the result answer the question as asked?)
Problem: only when not a match, what is wrong, in one sentence
Explanation: two or three plain sentences on what the query returns (no SQL terms).
${DATA_RULE}`;

export interface ExplainInput {
  question: string;
  hints?: string;
  sql: string;
  columns: string[];
  rows: SqlValue[][];
  totalRows: number | null;
  /** Facts the caller checked against the database (e.g. that the SQL's values are stored as written). */
  checked?: string[];
  /** Why the answer is checked (answer-evidence.ts): what the check should look at first. */
  why?: string[];
  /** The tables the SQL reads, a line each with their columns (the check judges names and keys by them). */
  tables?: string;
  /** The database's engine: the check names it (its SQL is that engine's). */
  dialect?: DialectId;
  /** Earlier questions of the conversation, oldest first: this one may follow up on them. */
  earlier?: readonly string[];
  /** The steps the person confirmed or edited (a plan): how they mean the question. */
  plan?: readonly string[];
  /** Those steps were written in another run (the plan card), maybe at a fuller level: their quoted values are marked. */
  planFromAnotherRun?: boolean;
  /**
   * The SQL was written in another run (Explain on the answer Ask put in the editor), maybe at a
   * fuller privacy level: its literals are marked as values (`sqlData`).
   */
  sqlFromAnotherRun?: boolean;
}

export function explainPrompt(input: ExplainInput): string {
  const lines = input.earlier?.length
    ? [`Earlier questions in this conversation, oldest first: ${input.earlier.map((q) => jsonData(q)).join('; ')}`]
    : [];
  lines.push(`Question: ${jsonData(input.question)}`);
  if (input.hints?.trim()) lines.push(`Hints: ${jsonData(input.hints.trim())}`);
  // An edited plan is the person's own reading of the question: the answer is judged by it too.
  if (input.plan?.length)
    lines.push(
      `The person set these steps for the answer; judge the result against the question as they read it: ${input.plan
        .map((step, i) => `${i + 1}. ${input.planFromAnotherRun ? quotedData(step) : jsonData(step)}`)
        .join(' ')}`,
    );
  // The SQL can quote names from the file (a line break inside "…" included): a JSON string too.
  // Result columns as SQL: an un-aliased expression's name is its text, literals and all.
  if (input.tables) lines.push(`Tables the SQL reads (columns, → a foreign key):\n${input.tables}`);
  lines.push(
    `SQL: ${input.sqlFromAnotherRun ? sqlData(input.sql) : jsonData(input.sql)}`,
    `Result columns: ${input.columns.map((c) => sqlData(c)).join(', ')}`,
  );
  const shownRows = input.rows.slice(0, CHECK_ROWS);
  for (const row of shownRows) lines.push(rowData(row, 60));
  const total = input.totalRows ?? input.rows.length;
  // "20 rows, then (22 in all)" reads as if 22 were listed: say which part is shown.
  lines.push(
    total === 0
      ? '(no rows)'
      : shownRows.length < total
        ? `(the first ${shownRows.length} of ${total} rows shown)`
        : `(${total} row${total === 1 ? '' : 's'} in all)`,
  );
  for (const fact of input.checked ?? []) lines.push(`Checked: ${fact}`);
  if (input.why?.length) lines.push(`Look first at: ${input.why.join('; ')}.`);
  return lines.join('\n');
}

const VERDICT_LINE = /^[\s>*_#-]*verdict[\s*_]*[:\-–][\s*_"']*([^\n]*)$/im;
/** Whether a reply has a Verdict line: the check's reply, not an answer's. */
export const hasVerdictLine = (text: string): boolean => VERDICT_LINE.test(text);
const PROBLEM_LINE = /^[\s>*_#-]*(?:problem|reason)[\s*_]*[:\-–][\s*_"']*([^\n]*)$/im;
/** "Explanation:" at a line's start, as models write it (markdown, case): the check's and an answer's. */
export const EXPLANATION_LABEL = /^[\s>*_#-]*explanation[\s*_]*:[\s*_]*/im;
/** "Problem: none", "n/a", "-": no problem stated. */
const NO_PROBLEM = /^(none|n\/?a|nothing|no problems?|-+|—)?[.\s]*$/i;

/** A verdict word or phrase as models write it ("Match", "does not match", "yes", "partially"). */
function verdictOf(text: string): Verdict | null {
  const t = text.toLowerCase();
  if (/\b(mismatch|does ?n[o']t (match|answer)|not (a )?match|incorrect|wrong|no)\b/.test(t)) return 'mismatch';
  if (/\b(unsure|uncertain|unclear|partial(ly)?|maybe|not sure)\b/.test(t)) return 'unsure';
  if (/\b(match(es)?|yes|correct|answers)\b/.test(t)) return 'match';
  return null;
}

/** With no Verdict line, a sentence that plainly says whether the result answers the question. */
function verdictInProse(text: string): Verdict | null {
  const t = text.toLowerCase();
  if (/\b(does ?n[o']t|do not|fails? to) (fully )?(match|answer)\b/.test(t)) return 'mismatch';
  if (/\b(matches|answers) (the|this|your) question\b/.test(t)) return 'match';
  return null;
}

/**
 * Reads the reply leniently: a Verdict line before or after the explanation, in any case, with
 * markdown, in words ("does not match", "yes"); without one, a sentence such as "This matches the
 * question."; otherwise 'unsure'. Null when there is no explanation at all.
 */
export function parseExplanation(text: string): { explanation: string; verdict: Verdict; problem?: string } | null {
  const line = VERDICT_LINE.exec(text);
  let rest = line ? text.slice(0, line.index) + text.slice(line.index + line[0].length) : text;
  const problemLine = PROBLEM_LINE.exec(rest);
  if (problemLine) rest = rest.slice(0, problemLine.index) + rest.slice(problemLine.index + problemLine[0].length);
  const body = rest
    .replace(EXPLANATION_LABEL, '')
    .replace(/^[\s*_]+|[\s*_]+$/g, '')
    .trim();
  const verdict = (line ? verdictOf(line[1]) : null) ?? verdictInProse(body) ?? 'unsure';
  const problem = problemLine?.[1].replace(/[\s*_]+$/g, '').trim();
  if (!body) return null;
  return problem && !NO_PROBLEM.test(problem) && verdict !== 'match'
    ? { explanation: body, verdict, problem }
    : { explanation: body, verdict };
}

export async function requestExplanation(
  model: ChatModel,
  input: ExplainInput,
  signal?: AbortSignal,
): Promise<ChatResponse> {
  return completeChat(model, {
    messages: [
      { role: 'system', content: inDialect(SYSTEM, input.dialect) },
      { role: 'user', content: explainPrompt(input) },
    ],
    temperature: 0,
    maxTokens: 300,
    signal,
  });
}
