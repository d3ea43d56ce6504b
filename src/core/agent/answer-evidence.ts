// When an answer is checked (issue 37): the answer request returns the SQL and its explanation
// together, and a second request — the check — is made only on evidence that the result may not
// answer the question. A check with nothing to decide on costs a request and, for a small model,
// invites "fixing" a right answer. Each reason is said in the run (the usage event's `why`).

import { topLevelWords } from '../sql/clauses';
import { EXPLANATION_LABEL } from './explain';
import { tokenize } from '../sql/tokens';
import type { SqlValue } from '../types';

/** What the evidence is read from: the question, the SQL as run, its result and the reply. */
export interface AnswerSeen {
  question: string;
  sql: string;
  columns: readonly string[];
  rows: readonly (readonly SqlValue[])[];
  totalRows: number | null;
  /** The explanation the answer's reply carried, or null. */
  explanation: string | null;
  /** In a conversation, the answer before this question: what a follow-up refers to. */
  previous?: { totalRows: number | null } | null;
}

/** Questions that ask for one number: a result of many rows from them, without grouping, is suspect. */
const ONE_NUMBER = /^\s*(how many|how much|what is the (number|total|count|average|sum)|count)\b/i;

/** The reasons to check this answer, in plain words (none: the answer stands as written). */
export function checkEvidence(seen: AnswerSeen): string[] {
  const why: string[] = [];
  const total = seen.totalRows ?? seen.rows.length;
  // Said with its other side: no rows is the right answer to many questions (49 of Spider's 972).
  if (total === 0) why.push('the result is empty (which can be the right answer)');
  else if (isZeroOrNullRow(seen.rows)) why.push('the result is one row of NULL or 0');
  else {
    const nullColumns = seen.columns.filter((_, i) => seen.rows.every((r) => r[i] === null));
    if (nullColumns.length) why.push(`every value of ${nullColumns.map((c) => JSON.stringify(c)).join(', ')} is NULL`);
  }
  if (total > 1 && ONE_NUMBER.test(seen.question) && !groups(seen.sql))
    why.push(`the question asks for one number and the result has ${total} rows`);
  why.push(...followUpDisagreement(seen.question, seen.previous ?? null, total, seen.sql));
  if (!seen.explanation) why.push(NO_EXPLANATION);
  return why;
}

/** "those 12 customers": the count a follow-up says the answer before had. */
const COUNT_REFERRED = /\b(?:those|these|the same|all)\s+(\d+)\b/i;
/** "of those", "among them", "which of these", "only": the follow-up keeps part of the answer before. */
const NARROWS =
  /(?:^\s*(?:and\s+)?(?:of|among)\s+(?:those|these|them)\b)|\bwhich\s+of\s+(?:those|these|them)\b|\bonly\b/i;

/**
 * A follow-up whose numbers disagree with the answer before it: the question counts "those 12"
 * where that answer had 20 rows, or keeps part of an answer of 20 rows and this result has more.
 * Said with its other side: a narrowed list of one-to-many rows (each customer's orders) can be longer.
 */
export function followUpDisagreement(
  question: string,
  previous: { totalRows: number | null } | null,
  total: number,
  sql: string,
): string[] {
  const before = previous?.totalRows;
  if (before === null || before === undefined) return [];
  const referred = COUNT_REFERRED.exec(question);
  if (referred && Number(referred[1]) !== before)
    return [`the question speaks of ${JSON.stringify(referred[0])} and the answer before had ${before} rows`];
  if (NARROWS.test(question) && total > before && !groups(sql))
    return [
      `the question keeps part of the answer before (${before} rows) and this result has ${total} (which can be right where each has several)`,
    ];
  return [];
}

/** One row of NULLs or zeros: maybe an aggregate over nothing. */
export const isZeroOrNullRow = (rows: readonly (readonly SqlValue[])[]) =>
  rows.length === 1 && rows[0].every((v) => v === null || v === 0);

/** The one reason that is about the reply, not the result: an unsure check then has nothing to act on. */
export const NO_EXPLANATION = 'the reply had no explanation';

/** Whether a reason to check is something the result showed (an unsure check may then act on it). */
export const isResultEvidence = (why: string) => why !== NO_EXPLANATION;

const groups = (sql: string) =>
  topLevelWords(tokenize(sql).filter((t) => t.kind !== 'comment')).some((w) => w.word === 'group');

/** Replies' explanations are a line or two; past this they are cut (a reply that rambles). */
const EXPLANATION_CHARS = 600;

/**
 * The explanation after the SQL in an answer's reply (`Explanation: …`, after a ```sql block or
 * the bare SQL), or null when there is none.
 */
export function explanationFromReply(text: string): string | null {
  const m = EXPLANATION_LABEL.exec(text);
  if (!m) return null;
  const body = text
    .slice(m.index + m[0].length)
    .replace(/```[\s\S]*$/, '')
    .replace(/[\s*_]+$/g, '')
    .trim();
  if (!body) return null;
  return body.length > EXPLANATION_CHARS ? `${body.slice(0, EXPLANATION_CHARS)}…` : body;
}

/** The reply without its explanation: what the SQL is read from (a bare SQL reply ends before it). */
export function withoutExplanation(text: string): string {
  const m = EXPLANATION_LABEL.exec(text);
  return m ? text.slice(0, m.index) : text;
}
