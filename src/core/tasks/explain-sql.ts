// Explain (Benchmark study: SQL-to-text) for any SQL in the editor: the agent's closing step
// (agent/explain.ts: the same prompt body and lenient reader) with an instruction that asks what
// the query returns, from which tables, with which filters and groupings. The query runs first,
// read-only, so the model sees its columns and first rows; a query that fails is explained from
// its text with the error. What the lexer can read for sure (tables, top-level filters, GROUP
// BY, ORDER BY, LIMIT) is returned as well, so the page shows it whatever the model writes.

import { inDialect } from '../dialect/prompt-text';
import { explainPrompt, parseExplanation } from '../agent/explain';
import type { Verdict } from '../agent/events';
import type { AgentTools } from '../agent/loop';
import { readSqlOutcome, type SqlOutcome } from '../agent/sql-outcome';
import { completeChat } from '../llm/complete';
import type { ChatModel, Usage } from '../llm/types';
import { withPrivacy, type PrivacyLevel } from '../privacy/disclose';
import { topLevelClauses } from '../sql/clauses';
import { topLevelWhere } from '../sql/where-clause';
import { tablesMentioned } from '../tools/sql-repair';
import type { Schema } from '../types';
import { DATA_RULE } from '../prompt/data-rule';

export interface SqlStructure {
  tables: string[];
  filters: string[];
  groupBy: string | null;
  orderBy: string | null;
  limit: string | null;
}

export interface SqlExplanation {
  explanation: string | null;
  /** Only with a question: does the result answer it? */
  verdict: Verdict | null;
  structure: SqlStructure;
  outcome: SqlOutcome | null;
  /** Why there is no explanation, when there is none. */
  note?: string;
  usage: Usage | null;
}

const SYSTEM = `You explain SQLite queries to people who do not read SQL.
Reply in exactly this format:
Verdict: match, mismatch or unsure (does the result answer the question as asked? unsure when no question is given)
Explanation: three or four plain sentences: what the query returns, from which tables, with which filters, and how rows are grouped or ordered (no SQL terms).
${DATA_RULE}`;

export function sqlStructure(sql: string, schema: Schema): SqlStructure {
  return {
    tables: tablesMentioned(sql, schema),
    filters: topLevelWhere(sql)?.predicates ?? [],
    ...topLevelClauses(sql),
  };
}

export async function explainSql(o: {
  sql: string;
  question?: string;
  schema: Schema;
  model: ChatModel;
  /** What of the cell values may reach the model (privacy/disclose.ts); default full. */
  privacy?: PrivacyLevel;
  tools: AgentTools;
  signal?: AbortSignal;
  /** The SQL was written in another run (an answer in the editor): its literals are values. */
  sqlFromAnotherRun?: boolean;
}): Promise<SqlExplanation> {
  const structure = sqlStructure(o.sql, o.schema);
  const ran = await o.tools.call('execute_sql', { sql: o.sql }, o.signal);
  const outcome = readSqlOutcome(ran);
  const question = o.question?.trim();
  let user = explainPrompt({
    question: question || '(none given: explain the query on its own)',
    sql: o.sql,
    columns: outcome?.columns ?? [],
    rows: outcome?.rows ?? [],
    totalRows: outcome?.ok ? outcome.totalRows : 0,
    sqlFromAnotherRun: o.sqlFromAnotherRun,
  });
  // The observation's first line as it is: one line (controls escaped), its data marked for the gate.
  if (!outcome?.ok) user += `\nRunning it failed: ${ran.observation.split('\n')[0]}`;
  try {
    const response = await completeChat(
      withPrivacy(o.model, { level: o.privacy ?? 'full', question: question ?? '' }),
      {
        messages: [
          { role: 'system', content: inDialect(SYSTEM, o.schema.dialect) },
          { role: 'user', content: user },
        ],
        temperature: 0,
        maxTokens: 400,
        signal: o.signal,
      },
    );
    const parsed = parseExplanation(response.text);
    return {
      explanation: parsed?.explanation ?? null,
      verdict: question && parsed ? parsed.verdict : null,
      structure,
      outcome,
      usage: response.usage,
      ...(parsed ? {} : { note: 'The model gave no explanation.' }),
    };
  } catch (e) {
    const note = `The explanation could not be written: ${e instanceof Error ? e.message : String(e)}`;
    return { explanation: null, verdict: null, structure, outcome, usage: null, note };
  }
}
