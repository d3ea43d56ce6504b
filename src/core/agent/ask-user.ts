// Clarification (issue 5): the seventh agent tool, ask_user. Asking a person costs them a wait,
// so the prompt allows it only on three ambiguity signals the tools make visible, and the loop
// allows it once per run. The person's answer goes back as data, like any observation.

import { z } from 'zod';

export const askUserInput = z.strictObject({
  question: z.string().trim().min(1).describe('One short question for the person'),
  options: z.array(z.string().trim().min(1)).min(1).max(6).describe('1 to 6 answers to choose from (shown as buttons)'),
});

export type AskUserQuestion = z.output<typeof askUserInput>;

/** Shows the question to the person and resolves to their answer (an option or free text). */
export type AskUser = (q: AskUserQuestion) => Promise<string>;

export const ASK_USER_DESCRIPTION =
  'Ask the person one clarifying question with 1-6 options. Only on the ambiguity signals in the rules, at most once per run.';

export const ASK_USER_RULE = `- ask_user only when one of these holds: a value the question needs is found in more than one column; a value matches only up to case or spacing; the top two columns search_column gives for a phrase score nearly the same. At most once per run. Otherwise decide yourself.`;

export const NO_PERSON = 'No person is available to answer; pick the most likely option and say so.';

export const ASKED_ALREADY = 'ask_user refused: you already asked once in this run. Decide yourself and say which option you took.';

/** The answer as an observation: quoted, because it is the person's text, not an instruction. */
export function answerObservation(answer: string): string {
  const text = answer.trim();
  if (!text) return 'The person gave no answer; pick the most likely option and say so.';
  return `The person answered: ${JSON.stringify(text)}`;
}
