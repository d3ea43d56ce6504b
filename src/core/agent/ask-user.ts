// Clarification (issue 5): the seventh agent tool, ask_user. Asking a person costs them a wait,
// so the prompt allows it only on the ambiguity signals the tools make visible, and the loop
// allows it once per run. The person's answer goes back as data, like any observation.

import { z } from 'zod';
import { promptIdent } from '../prompt/schema-text';
import { stemAll } from '../retrieval/text';
import { splitIdentifier, words } from '../text/normalize';
import { valueData } from '../tools/quote-data';

export const askUserInput = z.strictObject({
  question: z.string().trim().min(1).describe('one short question'),
  options: z.array(z.string().trim().min(1)).min(1).max(6).describe('answers to choose from'),
});

export type AskUserQuestion = z.output<typeof askUserInput>;

/** Shows the question to the person and resolves to their answer (an option or free text). */
export type AskUser = (q: AskUserQuestion) => Promise<string>;

export const ASK_USER_DESCRIPTION =
  'Ask the person one question with 1-6 options (only on an ambiguity signal in the rules; once).';

export const ASK_USER_RULE = `- ask_user only when a value the question needs is in several columns and the question does not say which, two columns from search_column score nearly the same, execute_sql says a column holds codes whose meaning the data does not store, or a follow-up question cannot be read from the conversation before it; at most once. Otherwise decide yourself.`;

/** The signal a conversation gives: a follow-up may refer to something the thread does not settle. */
export const FOLLOW_UP_SIGNAL = 'a follow-up question in a conversation';

export const NO_PERSON = 'No person is available to answer; pick the most likely option and say so.';

/** Nobody could answer, so the first option stands: the model must not say the person chose it. */
export function defaultAnswerObservation(option: string): string {
  return `No person is here to answer; the first option was taken by default: ${JSON.stringify(option)}. Go on with it, and say in your answer that you assumed it.`;
}

export const ASKED_ALREADY =
  'ask_user refused: you already asked once in this run. Decide yourself and say which option you took.';

const ANSWERED_PREFIX = 'The person answered: ';
const ANSWERED = /^The person answered: ("(?:[^"\\]|\\.)*")/;

/** The answer as an observation: quoted, because it is the person's text, not an instruction. */
export function answerObservation(answer: string): string {
  const text = answer.trim();
  if (!text) return 'The person gave no answer; pick the most likely option and say so.';
  return `${ANSWERED_PREFIX}${JSON.stringify(text)}`;
}

/** The person's answer an `answerObservation` holds, or null (no answer, or another observation). */
export function answerOf(observation: string): string | null {
  const m = ANSWERED.exec(observation);
  return m ? (JSON.parse(m[1]) as string) : null;
}

export const NO_SIGNAL =
  'ask_user refused: no ambiguity was seen in the tool results so far (a value in more than one column that the question does not choose between, two columns scoring nearly the same, or codes whose meaning is not stored), and this is not a follow-up in a conversation. Decide yourself; search first if unsure.';

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

type Holder = { table: string; column: string };

/**
 * Whether the question names exactly one of the holders, by its table or else by its column:
 * every word of the name (split, stemmed) is a word of the question ("program" names
 * `program.name`; "work city" names `person.work_city`, not `person.home_city`).
 */
function questionChooses(question: string, holders: readonly Holder[]): boolean {
  const said = new Set(stemAll(words(question)));
  const names = (name: string) => {
    const parts = stemAll(splitIdentifier(name));
    return parts.length > 0 && parts.every((p) => said.has(p));
  };
  for (const part of ['table', 'column'] as const) {
    const named = new Set(holders.filter((h) => names(h[part])).map((h) => `${h.table}.${h.column}`.toLowerCase()));
    if (named.size === 1) return true;
  }
  return false;
}

/**
 * The ambiguity signal a tool result shows, if any (why asking the person may be worth it), from
 * the tools' structured outputs: search_value hits and search_column scores. A value found in
 * several columns is no signal when `question` names one of them. A value that differs from the
 * query only in case, accents or spacing is none either: search_value says to use it as stored.
 */
export function ambiguitySignal(tool: string, _args: unknown, output: unknown, question?: string): string | null {
  if (tool === 'search_value') {
    const hits = (output as { hits?: Array<Holder & { value: string; match?: string }> } | null)?.hits ?? [];
    if (hits.length === 0) return null;
    const top = hits[0];
    const same = hits.filter((h) => norm(h.value) === norm(top.value));
    const columns = new Set(same.map((h) => `${promptIdent(h.table)}.${promptIdent(h.column)}`.toLowerCase()));
    if (columns.size < 2 || (question !== undefined && questionChooses(question, same))) return null;
    return `${valueData(top.value)} is in ${[...columns].join(', ')}`;
  }
  if (tool === 'search_column') {
    const hits = (output as { hits?: Array<{ table: string; column: string; score: number }> } | null)?.hits ?? [];
    if (hits.length >= 2 && hits[0].score > 0 && hits[1].score >= 0.9 * hits[0].score) {
      const ref = (h: { table: string; column: string }) => `${promptIdent(h.table)}.${promptIdent(h.column)}`;
      return `${ref(hits[0])} and ${ref(hits[1])} score nearly the same`;
    }
  }
  return null;
}
