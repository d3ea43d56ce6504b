// The Direct mode prompt: the benchmark study's best plain template (SimpleDDL-MD-Chat, Zhang, Ye
// et al. 2024) — the schema as `table(col, col, …)` lines in a Markdown comment block with the
// foreign keys, the question as a Markdown heading, then `SQL:` — in a chat with a short system
// instruction. Names come from the user's file and are written as SQL would (promptIdent); the
// question and hints are quoted as JSON strings, data rather than instructions.

import { withoutExplanation } from './answer-evidence';
import { dialectFacts, inDialect } from '../dialect/prompt-text';
import type { ChatMessage } from '../llm/types';
import { estimateTokens, promptIdent } from '../prompt/schema-text';
import { splitStatements } from '../sql/statements';
import type { Schema } from '../types';
import { threadText, type PriorTurn } from './thread';
import { schemaNames } from '../tools/quote-data';
import { DATA_RULE } from '../prompt/data-rule';

export const DIRECT_SYSTEM = `You are a SQLite expert. Answer the question with one SQLite query.
Reply with the SQL, then a last line "Explanation:" with two short sentences for the person on what the result shows. No Markdown.
${DATA_RULE}`;

/** `table(col, col, …)` lines and one line per foreign key, each behind `# `. */
export function simpleDdl(schema: Schema): string {
  const lines = schema.tables.map(
    (t) => `# ${promptIdent(t.name)}(${t.columns.map((c) => promptIdent(c.name)).join(', ')})`,
  );
  const keys = schema.tables.flatMap((t) =>
    t.foreignKeys.flatMap((fk) =>
      fk.from.map(
        (from, i) =>
          `# ${promptIdent(t.name)}.${promptIdent(from)} = ${promptIdent(fk.refTable)}.${promptIdent(fk.to[i] ?? '')}`,
      ),
    ),
  );
  const unique = [...new Set(keys)];
  return ['#', ...lines, ...(unique.length ? ['#', '# Foreign keys:', ...unique] : []), '#'].join('\n');
}

/**
 * Direct sends the whole schema in one prompt, so it is for small schemas: above this estimate
 * (o200k-like tokens of the `table(col, …)` block) the page and `dowser direct` say so and suggest
 * the agent, whose tools look columns up instead. 4,000 tokens leaves room for the question and
 * the reply in the 8k context of small local models.
 */
export const DIRECT_MAX_SCHEMA_TOKENS = 4000;

/** Estimated tokens of the schema block of the Direct prompt. */
export function directSchemaTokens(schema: Schema): number {
  return estimateTokens(simpleDdl(schema));
}

export function directPrompt(input: {
  question: string;
  hints?: string;
  schema: Schema;
  history?: readonly PriorTurn[];
}): ChatMessage[] {
  const thread = threadText(input.history ?? [], undefined, schemaNames(input.schema));
  const facts = dialectFacts(input.schema);
  const user = [
    inDialect('### SQLite tables, with their columns:', input.schema.dialect),
    simpleDdl(input.schema),
    ...(facts ? [`### ${facts}`] : []),
    ...(thread ? [`### ${thread}`] : []),
    ...(input.hints?.trim() ? [`### Hints: ${JSON.stringify(input.hints.trim())}`] : []),
    `### Question: ${JSON.stringify(input.question)}`,
    'SQL:',
  ].join('\n');
  return [
    { role: 'system', content: inDialect(DIRECT_SYSTEM, input.schema.dialect) },
    { role: 'user', content: user },
  ];
}

/** The repair turn after a failed query: the error with the detail the tools computed. */
export function repairMessage(observation: string): ChatMessage {
  return {
    role: 'user',
    content: `The query failed when run:\n${observation}\nWrite the corrected query, in the form asked for at the start.`,
  };
}

/**
 * The SQL in a reply: the first fenced block when there is one, else the text without a leading
 * `SQL:` label; only the first statement.
 */
export function sqlFromReply(text: string): string {
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(text);
  // Bare SQL ends where its explanation starts.
  const sql = (fenced ? fenced[1] : withoutExplanation(text)).trim().replace(/^sql\s*:\s*/i, '');
  return splitStatements(sql)[0]?.text ?? '';
}
