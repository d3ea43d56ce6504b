// Fix (Benchmark study, Zhang, Ye et al. 2024: SQL debugging, where fine-grained error detail is
// what makes repair work): SQL that fails, returns no rows, or that the person marks wrong with a
// note goes to the model with the question, the SQL, SQLite's error and the detail execute_sql
// computes (close names, ambiguous columns, which filter or join emptied the result;
// tools/sql-repair.ts), and the note. Its fix runs through the same tool; at most `maxRounds`
// proposals, then the report lists what was tried. Database text reaches the prompt only as the
// tool's observation (quoted as data there) or as JSON strings.

import { inDialect } from '../dialect/prompt-text';
import { restoreWithheld, taskSqlText, WITHHELD_KEPT } from './other-run-sql';
import type { ChatMessage, ChatModel } from '../llm/types';
import { LlmError } from '../llm/types';
import { readSqlOutcome, type SqlOutcome } from '../agent/sql-outcome';
import type { AgentTools } from '../agent/loop';
import { addUsage, NO_USAGE, type UsageTotals } from '../agent/events';
import { jsonData } from '../tools/quote-data';
import type { Schema } from '../types';
import { sameSqlText, sqlFromModel } from './model-sql';
import { withPrivacy, type PrivacyLevel } from '../privacy/disclose';
import { schemaForTask } from './task-schema';
import { DATA_RULE } from '../prompt/data-rule';

export interface FixOptions {
  sql: string;
  question?: string;
  /** The person's words on what is wrong (the SQL may run fine). */
  note?: string;
  schema: Schema;
  model: ChatModel;
  /** What of the cell values may reach the model (privacy/disclose.ts); default full. */
  privacy?: PrivacyLevel;
  tools: AgentTools;
  signal?: AbortSignal;
  /** Proposals asked for (default 2). */
  maxRounds?: number;
  /** Called as each run of SQL ends (the original first). */
  onAttempt?: (attempt: FixAttempt) => void;
  /** The SQL was written in another run (an answer in the editor): its literals are values (other-run-sql.ts). */
  sqlFromAnotherRun?: boolean;
}

export interface FixAttempt {
  sql: string;
  /** What execute_sql said: error with hints, or columns, first rows and why it is empty. */
  observation: string;
  outcome: SqlOutcome | null;
  /** Why this attempt does not count as fixed (null when it does, and for the original). */
  problem: string | null;
}

export interface FixReport {
  status: 'fixed' | 'not_fixed' | 'nothing_to_fix' | 'failed';
  /** What was wrong with the original. */
  problem: string;
  original: FixAttempt;
  /** The model's proposals, in order. */
  attempts: FixAttempt[];
  /** The proposal that worked. */
  fixed: FixAttempt | null;
  /** For not_fixed and failed: what was tried and how each ended. */
  summary: string;
  usage: UsageTotals;
}

const SYSTEM = `You repair SQLite queries.
You get a query, what happened when it ran (the SQLite error with hints, or its rows and why it returned none), and what the person says is wrong.
Reply with the corrected SQL only: no explanation, no Markdown.
${DATA_RULE}`;

export function fixPrompt(input: {
  sql: string;
  question?: string;
  note?: string;
  observation: string;
  schema: Schema;
  sqlFromAnotherRun?: boolean;
}): ChatMessage[] {
  const lines = [
    inDialect('### SQLite tables, with their columns:', input.schema.dialect),
    schemaForTask(input.schema, input.sql),
    `### Question: ${input.question?.trim() ? jsonData(input.question.trim()) : '(not given)'}`,
    `### SQL: ${taskSqlText(input.sql, input.schema, input.sqlFromAnotherRun)}`,
    '### What happened when it ran:',
    input.observation,
  ];
  if (input.note?.trim()) lines.push(`### What is wrong, says the person: ${jsonData(input.note.trim())}`);
  lines.push('Corrected SQL:');
  return [
    { role: 'system', content: inDialect(SYSTEM, input.schema.dialect) },
    { role: 'user', content: lines.join('\n') },
  ];
}

/** What is wrong with a run: the error, no rows (without a note that says otherwise), or nothing. */
function problemOf(
  outcome: SqlOutcome | null,
  observation: string,
  { emptyIsWrong }: { emptyIsWrong: boolean },
): string | null {
  if (!outcome) return observation.split('\n')[0];
  if (!outcome.ok) return outcome.summary;
  if (outcome.empty && emptyIsWrong) return 'it returns no rows';
  return null;
}

export async function fixSql(o: FixOptions): Promise<FixReport> {
  const maxRounds = o.maxRounds ?? 2;
  const note = o.note?.trim() || undefined;
  let usage: UsageTotals = NO_USAGE;
  const run = async (sql: string, { emptyIsWrong }: { emptyIsWrong: boolean }): Promise<FixAttempt> => {
    const outcome = await o.tools.call('execute_sql', { sql }, o.signal);
    const result = readSqlOutcome(outcome);
    const attempt = {
      sql,
      observation: outcome.observation,
      outcome: result,
      problem: problemOf(result, outcome.observation, { emptyIsWrong }),
    };
    o.onAttempt?.(attempt);
    return attempt;
  };
  const original = await run(o.sql, { emptyIsWrong: true });
  const attempts: FixAttempt[] = [];
  const report = (status: FixReport['status'], problem: string, fixed: FixAttempt | null, summary = ''): FixReport => ({
    status,
    problem,
    original,
    attempts,
    fixed,
    summary,
    usage,
  });
  const problem = original.problem ?? (note ? `the person says: ${note}` : null);
  if (!problem)
    return report(
      'nothing_to_fix',
      'none',
      null,
      'The SQL runs and returns rows. Say what is wrong with it in a note, and Fix will try again with that.',
    );

  const messages = fixPrompt({ ...o, note, observation: original.observation });
  try {
    for (let round = 1; round <= maxRounds; round++) {
      const reply = await sqlFromModel(gated(o), messages, o.signal);
      usage = addUsage(usage, reply.usage);
      messages.push({ role: 'assistant', content: reply.text });
      // The values the model could not see go back where it kept their places.
      const restored =
        o.sqlFromAnotherRun && reply.sql ? restoreWithheld(reply.sql, o.sql, policyOf(o), o.schema) : null;
      if (restored && !restored.unresolved) reply.sql = restored.sql;
      let attempt: FixAttempt;
      if (restored?.unresolved) {
        attempt = { sql: reply.sql, observation: WITHHELD_KEPT, outcome: null, problem: 'it keeps withheld values' };
      } else if (!reply.sql) {
        attempt = { sql: '', observation: 'The reply held no SQL.', outcome: null, problem: 'the reply held no SQL' };
      } else if ([o.sql, ...attempts.map((a) => a.sql)].some((s) => sameSqlText(s, reply.sql))) {
        attempt = {
          sql: reply.sql,
          observation: 'The same SQL again.',
          outcome: null,
          problem: 'it repeats a query already tried',
        };
      } else attempt = await run(reply.sql, { emptyIsWrong: true });
      attempts.push(attempt);
      if (!attempt.problem) return report('fixed', problem, attempt);
      messages.push({
        role: 'user',
        content: `That did not fix it (${attempt.problem}). What happened when it ran:\n${attempt.observation}\nWrite another correction. Reply with the SQL only.\nCorrected SQL:`,
      });
    }
  } catch (e) {
    const message = e instanceof LlmError || e instanceof Error ? e.message : String(e);
    return report('failed', problem, null, [`The model call failed: ${message}`, ...tried(attempts)].join('\n'));
  }
  return report(
    'not_fixed',
    problem,
    null,
    [`No fix after ${maxRounds} rounds. Tried:`, ...tried(attempts)].join('\n'),
  );
}

function tried(attempts: FixAttempt[]): string[] {
  return attempts.map(
    (a, i) => `${i + 1}. ${a.sql ? a.sql.replace(/\s+/g, ' ').slice(0, 300) : '(no SQL)'} — ${a.problem}`,
  );
}

/** The model behind the privacy gate: every proposal request carries the SQL's observations. */
function gated(o: FixOptions): ChatModel {
  return withPrivacy(o.model, policyOf(o));
}

const policyOf = (o: FixOptions) => ({ level: o.privacy ?? 'full', question: o.question ?? '' });
