// Conversations (issue 23): the earlier turns of a thread as the next question's prompt carries
// them — each question, the SQL that answered it, the result's columns and row count, and the
// person's correction — so "and only for Germany?" reaches the model with what it follows up on.
// Questions and corrections are the person's (quoted, and instructions); SQL is the model's own;
// result rows are cell values, marked for the privacy gate. Long threads stay bounded: the newest
// turns whole, older ones by their question alone, within a token budget.

import { estimateTokens } from '../prompt/schema-text';
import { answerOf } from './ask-user';
import type { AgentEvent } from './events';
import { jsonData, rowData, sqlData } from '../tools/quote-data';
import type { SqlValue } from '../types';

export interface PriorTurn {
  question: string;
  /** The SQL the turn finished with; null when it ended without one. */
  sql: string | null;
  columns: string[];
  /** Rows the SQL returns in all, when known. */
  totalRows: number | null;
  /** A few of its rows (cell values: the privacy gate decides whether they leave). */
  rows?: SqlValue[][];
  /** What the person said was wrong with it, if anything. */
  correction?: string;
  /** Questions the person was asked within the turn (ask_user) and what they answered. */
  clarifications?: Clarification[];
}

/** A question asked back within a turn, and the person's answer. */
export interface Clarification {
  asked: string;
  answer: string;
}

/** Who said what, in one line: the question asked back is the system's, the answer the person's. */
export function clarificationText(c: Clarification): string {
  return `The person was asked ${jsonData(c.asked)} and answered ${jsonData(c.answer)}`;
}

/** Tokens the thread may take in a prompt; older turns shrink to their question first. */
export const THREAD_MAX_TOKENS = 300;
/** Rows of the newest answer shown, so "those" and "the first one" can be read. */
const ROWS_SHOWN = 3;
/**
 * Rows of an earlier answer shown while the budget allows: with its count, enough to notice that
 * "those 12" do not follow an answer of 20, or that "the second one" meant an earlier list.
 */
const EARLIER_ROWS_SHOWN = 1;

function turnText(
  t: PriorTurn,
  n: number,
  whole: boolean,
  newest: boolean,
  names: ReadonlySet<string> | undefined,
): string {
  const lines = [`${n}. Question: ${jsonData(t.question)}`];
  if (!whole) return lines[0];
  for (const c of t.clarifications ?? []) lines.push(`   ${clarificationText(c)}`);
  if (t.sql === null) lines.push('   (it was not answered)');
  else {
    // Written in an earlier run, maybe at a fuller privacy level: its literals are values.
    lines.push(`   SQL: ${sqlData(t.sql, names)}`);
    const count = t.totalRows === null ? 'rows' : `${t.totalRows} row${t.totalRows === 1 ? '' : 's'}`;
    // SQLite names an un-aliased expression by its text, literals and all: marked as the SQL is.
    lines.push(`   Result: ${count}; columns ${t.columns.map((c) => sqlData(c, names)).join(', ')}`);
    const rows = (t.rows ?? []).slice(0, newest ? ROWS_SHOWN : EARLIER_ROWS_SHOWN);
    for (const row of rows) lines.push(`   ${rowData(row, 40)}`);
    if (!newest && rows.length && (t.totalRows ?? 0) > rows.length) lines.push('   …');
  }
  if (t.correction?.trim()) lines.push(`   The person said it was wrong: ${jsonData(t.correction.trim())}`);
  return lines.join('\n');
}

/**
 * The thread for a prompt, newest last, or '' when there is none. Turns are written whole from
 * the newest back while they fit the budget; earlier ones keep only their question.
 */
export function threadText(
  turns: readonly PriorTurn[],
  maxTokens = THREAD_MAX_TOKENS,
  names?: ReadonlySet<string>,
): string {
  if (!turns.length) return '';
  const parts: string[] = new Array(turns.length);
  let used = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const newest = i === turns.length - 1;
    const whole = turnText(turns[i], i + 1, true, newest, names);
    const cost = estimateTokens(whole);
    // The newest turn is always whole: a follow-up is read against it.
    if (newest || used + cost <= maxTokens) {
      parts[i] = whole;
      used += cost;
    } else {
      parts[i] = turnText(turns[i], i + 1, false, false, names);
      used += estimateTokens(parts[i]);
    }
  }
  return [
    'Earlier in this conversation (newest last). The question below may follow up on it: read "those", "it", "also", "instead" against the newest answer, and change its SQL (a filter, a column, an order) rather than start over when that is what is asked.',
    ...parts,
  ].join('\n');
}

/** The questions the run asked the person and their answers (a default taken for them is no answer). */
function clarificationsOf(events: readonly AgentEvent[]): Clarification[] {
  const out: Clarification[] = [];
  events.forEach((e, i) => {
    if (e.type !== 'ask' || e.defaultAnswer !== undefined) return;
    const reply = events
      .slice(i + 1)
      .find((o) => o.type === 'observation' && o.tool === 'ask_user' && (!e.callId || o.callId === e.callId));
    const answer = reply?.type === 'observation' ? answerOf(reply.text) : null;
    if (answer !== null) out.push({ asked: e.question, answer });
  });
  return out;
}

/** A finished run as the next turn's context: its question and what its final event answered. */
export function priorTurnOf(question: string, events: readonly AgentEvent[], correction?: string): PriorTurn {
  const final = events.findLast((e) => e.type === 'final');
  const clarifications = clarificationsOf(events);
  const base = {
    ...(correction?.trim() ? { correction: correction.trim() } : {}),
    ...(clarifications.length ? { clarifications } : {}),
  };
  if (!final || final.type !== 'final') return { question, sql: null, columns: [], totalRows: null, ...base };
  return {
    question,
    sql: final.sql,
    columns: final.columns,
    totalRows: final.totalRows,
    rows: final.rows.slice(0, ROWS_SHOWN),
    ...base,
  };
}
