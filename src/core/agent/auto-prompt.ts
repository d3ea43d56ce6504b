// Auto's prompts (issue 22). The first request is grounded: every column with its type, keys and
// what its stored values look like (prompt/grounded-schema.ts), the SQLite facts those values call
// for, the values the question names as the linker found them, the person's confirmed examples,
// then the question. Later turns of the same conversation carry what running the query showed:
// an error with its repair detail, a value that is not stored, an empty result, or a check's
// objection. The system prompt never changes, so providers can cache it.

import { dialectFacts, inDialect } from '../dialect/prompt-text';
import { dialectOf } from '../dialect/registry';
import type { ChatMessage } from '../llm/types';
import { DATA_RULE } from '../prompt/data-rule';
import { groundedSchema, type FullTables, type Grounding, type GroundingDetail } from '../prompt/grounded-schema';
import { todayLine } from '../prompt/today';
import type { PrivacyPolicy } from '../privacy/disclose';
import type { QuestionLink } from '../retrieval/linker';
import { promptIdent } from '../prompt/schema-text';
import { jsonData, schemaNames } from '../tools/quote-data';
import type { Schema } from '../types';
import { valueLinkHints } from './link-hints';
import { threadText, type PriorTurn } from './thread';
import { userExamplesText, type PromptInput } from './prompt';

export const AUTO_SYSTEM = `You write one read-only SQLite query that answers a person's question about their database.
Reply with the query in a \`\`\`sql block, then one line "Explanation:" with two short sentences for the person on what the result shows.
Return only the columns the question asks for, in the order it asks.
Write values exactly as the database stores them: the schema shows stored values and their form, and = on text is case-sensitive. Where the question says how to match (contains, starts with, ignoring case), do as it says.
${DATA_RULE}`;

export interface AutoPromptInput {
  question: string;
  hints?: string;
  schema: Schema;
  grounding: Grounding | null;
  links?: readonly QuestionLink[];
  privacy: PrivacyPolicy;
  userExamples?: PromptInput['userExamples'];
  /** How much of each column the schema shows (full unless that is over Auto's budget). */
  detail?: GroundingDetail;
  /** In compact detail, the tables still shown in full (a follow-up's: auto.ts `followUpTables`). */
  fullTables?: FullTables;
  /** The conversation's earlier turns (thread.ts). */
  history?: readonly PriorTurn[];
  /** The person's date (YYYY-MM-DD), said when the database holds dates. */
  today?: string;
}

/** The grounded schema block and its notes, as the first request carries them. */
export function autoDatabaseText(
  input: Pick<AutoPromptInput, 'schema' | 'grounding' | 'privacy' | 'detail' | 'today' | 'fullTables'>,
): string {
  const detail = input.detail ?? 'full';
  const grounded = groundedSchema(input.schema, input.grounding, input.privacy, detail, input.fullTables);
  const focus = detail === 'compact' && input.fullTables?.size ? [...input.fullTables] : [];
  const heading =
    detail === 'full'
      ? 'Database (each table, then its columns: type, key, stored values or their range):'
      : focus.length
        ? `Database (each table, then its columns: type, key, stored values or their range in ${focus.map(promptIdent).join(', ')}; elsewhere the values of columns that have few):`
        : 'Database (each table, then its columns: type, key, the values of columns that have few):';
  const parts = [`${heading}\n${grounded.text}`];
  const facts = dialectFacts(input.schema);
  if (facts) parts.push(facts);
  if (grounded.notes.length)
    parts.push(`${dialectOf(input.schema.dialect).label} notes:\n${grounded.notes.map((n) => `- ${n}`).join('\n')}`);
  if (grounded.hasDates && input.today) parts.push(todayLine(input.today));
  return parts.join('\n\n');
}

export function autoPrompt(input: AutoPromptInput): ChatMessage[] {
  const user = [autoDatabaseText(input)];
  // Under schema-only the stored form would be withheld anyway: the lines would only say "a value".
  const values = input.links?.length && input.privacy.level !== 'schema' ? valueLinkHints(input.links) : '';
  if (values) user.push(`Words of the question that are stored values (automatic, may be wrong):\n${values}`);
  if (input.userExamples?.length)
    user.push(
      `Worked examples for this database (reuse what fits):\n${userExamplesText(input.userExamples, schemaNames(input.schema))}`,
    );
  const thread = threadText(input.history ?? [], undefined, schemaNames(input.schema));
  if (thread) user.push(thread);
  user.push(`Question: ${jsonData(input.question)}`);
  if (input.hints?.trim()) user.push(`Hints: ${jsonData(input.hints.trim())}`);
  return [
    { role: 'system', content: inDialect(AUTO_SYSTEM, input.schema.dialect) },
    { role: 'user', content: user.join('\n\n') },
  ];
}

const KEEP_OR_FIX =
  'If the query is right, reply with it unchanged; otherwise reply with the corrected query (in the form asked for at the start).';

/**
 * After a query that compares a column with a value it does not hold as written: what the column
 * holds, and the reminder that an empty result can be the answer (a hint is evidence, not an
 * order to drop a filter).
 */
export function evidenceMessage(found: { result: string; unstored: string[] }): ChatMessage {
  const lines = [`The query ran. Result:\n${found.result}`];
  if (found.unstored.length) lines.push(found.unstored.join('\n'));
  lines.push(`An empty or zero result can be the right answer. ${KEEP_OR_FIX}`);
  return { role: 'user', content: lines.join('\n\n') };
}

/** After the check of the result objected: its words (the model's own) and the choice to keep or fix. */
export function checkObjectionMessage(check: { problem: string; verdict: string; result: string }): ChatMessage {
  return {
    role: 'user',
    content: `The query ran. Result:\n${check.result}\n\nA check of this result against the question says ${check.verdict}: ${jsonData(check.problem)}\n${KEEP_OR_FIX}`,
  };
}
