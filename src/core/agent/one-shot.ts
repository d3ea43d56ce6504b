// The answer path without tools that Direct and Auto share (issues 22, 37): one request for the
// SQL and its explanation, the SQL run read-only, then more requests only when what running it
// showed calls for one —
//   - the query fails: one repair turn with SQLite's error and the repair detail;
//   - (Auto) a compared value is not stored as written: one turn with what the column holds,
//     where the model keeps the query or fixes it;
//   - the result gives a reason to doubt it (answer-evidence.ts: empty, all NULL, many rows for
//     one number, no explanation): the check (verdict, problem, explanation: explain.ts), told
//     why and shown the tables read; when it finds the result does not match, one turn with its
//     words (and, for an empty result, the facts on which filter or join emptied it), where the
//     model keeps or fixes the query. An unsure check does the same when the result gave the reason
//     (an empty or NULL result is new evidence); called only for a missing explanation, it ends the
//     run with its words as a note: with nothing new to act on, a rewrite is as likely to break a
//     right answer as to mend a wrong one.
// Without such a reason the answer stands after one request ('unchecked'). Each request's usage
// event says why it was made.
// Where Direct would give up, Auto hands the conversation's findings to the agent (`handOver`).

import { LlmError, type ChatMessage, type ChatModel, type Usage } from '../llm/types';
import { errorData, rowData } from '../tools/quote-data';
import { toDowserError } from '../errors';
import { unmark } from '../privacy/marks';
import { withModelView, type PrivacyPolicy } from '../privacy/disclose';
import type { Schema } from '../types';
import { AbortedError, TimeLimitError, withTimeLimit } from './abort';
import { repairMessage, sqlFromReply } from './direct-prompt';
import { checkObjectionMessage, evidenceMessage } from './auto-prompt';
import {
  addUsage,
  NO_USAGE,
  type AgentErrorCode,
  type AgentEvent,
  type AgentEventBody,
  type UsageTotals,
} from './events';
import { checkAnswer, finalEvent, type AnswerCheck } from './steps/explain-step';
import type { AgentTools } from './loop';
import { streamTurn } from './model-turn';
import { normalizeSql, readSqlOutcome, type SqlOutcome } from './sql-outcome';
import { jsonData } from '../tools/quote-data';
import type { ToolCallOutcome } from '../tools/registry';
import { checkStoredValues } from './value-evidence';
import { checkEvidence, explanationFromReply, isResultEvidence, isZeroOrNullRow } from './answer-evidence';
import type { PriorTurn } from './thread';
import { limitTieNote } from './limit-tie-note';
import { codeAssumptionNote, codeAssumptionReader } from './code-evidence';

type OkResult = Extract<SqlOutcome, { ok: true }>;

type Check = AnswerCheck;

/** What the one-shot path learned before handing over: each query tried and what it showed. */
export interface Handover {
  reason: string;
  /** The attempts as text for the agent's prompt (queries and findings quoted as data). */
  carryOver: string;
  /** Model calls made so far (the agent's steps continue after them). */
  step: number;
  total: UsageTotals;
}

export interface OneShotOptions {
  question: string;
  hints?: string;
  /** Already behind the privacy gate. */
  model: ChatModel;
  /** The gate's policy, so the events can say what the model read where it withheld values. */
  policy?: PrivacyPolicy;
  tools: AgentTools;
  schema: Schema;
  signal?: AbortSignal;
  /** The first request. */
  messages: ChatMessage[];
  /** Auto: check stored values and empty results after a query ran. */
  evidence: boolean;
  /** Auto: where the path cannot settle the answer, the agent goes on from what was learned. */
  handOver?: (h: Handover) => AsyncGenerator<AgentEvent>;
  /** Repair turns after a failing query (default 1). */
  maxRepairs?: number;
  /** The conversation's earlier turns (the prompt holds them; the check reads the question against them). */
  history?: readonly PriorTurn[];
  finalRows: number;
  toolTimeoutMs?: number;
  now: () => number;
}

/** Requests at most: answer, repair, evidence, check, objection, second check. */
export const ONE_SHOT_MAX_REQUESTS = 6;

/** Told to the check once the stored-value check passed: a spelling the question does not use is the data's. */
const storedFact = (stored: string[]) => `stored as written: ${stored.join(', ')}.`;

/** The result as the model reads it in a later turn: count, columns and the first rows (marked data). */
function resultText(r: OkResult, rows = 5): string {
  const count = r.empty
    ? 'no rows'
    : `${r.totalRows ?? `more than ${r.rows.length}`} row${r.totalRows === 1 ? '' : 's'}`;
  const lines = [`${count}; columns ${r.columns.map((c) => jsonData(c)).join(', ')}`];
  for (const row of r.rows.slice(0, rows)) lines.push(rowData(row, 60));
  return lines.join('\n');
}

export async function* runOneShot(o: OneShotOptions): AsyncGenerator<AgentEvent> {
  let step = 0;
  let total: UsageTotals = NO_USAGE;
  const ev = (body: AgentEventBody): AgentEvent => ({ ...body, step, at: o.now() }) as AgentEvent;
  const fail = (code: AgentErrorCode, message: string) => ev({ type: 'error', code, message });
  const usage = (u: Usage | null, ms: number, phase: 'agent' | 'explain', why?: string) => {
    total = addUsage(total, u);
    return ev({ type: 'usage', usage: u, total: { ...total }, ms, phase, ...(why ? { why } : {}) });
  };
  /** Why the next answer request is made. */
  let nextWhy = 'the answer';
  const messages = [...o.messages];
  const attempts: string[] = [];
  let repairsLeft = o.maxRepairs ?? 1;
  let evidenceAsked = false;
  let objected = false;
  /** The query the model was last asked to keep or fix, with what is known of it. */
  let pending: { sql: string; result: OkResult; seen: string; check?: Check } | null = null;
  /** The last query that ran and was checked: what Direct ends with when a rewrite fails. */
  let checkedBefore: { result: OkResult; check: Check } | undefined;

  /** A turn sent back to the model, shown to the person as what the model was told (marks removed). */
  const tell = (message: ChatMessage, ok: boolean): AgentEvent => {
    messages.push(message);
    return ev({
      type: 'observation',
      tool: '',
      text: unmark(message.content),
      ...withModelView(message.content, o.policy),
      ok,
      ms: 0,
    });
  };
  const host = {
    o: {
      question: o.question,
      hints: o.hints,
      model: o.model,
      schema: o.schema,
      signal: o.signal,
      finalRows: o.finalRows,
      now: o.now,
      history: o.history,
    },
    ev,
    usageEvent: usage,
  };
  const finalOf = (result: OkResult, check: Check) => finalEvent(host, result, check);
  const codesIn = codeAssumptionReader(o.tools, o.schema, o, o.signal);
  /** The answer's final event, its note saying which code meanings it assumed and when its LIMIT cut among tied rows. */
  const answered = async (result: OkResult, check: Check) => {
    const codes = codeAssumptionNote(await codesIn(result.sql));
    const tie = await limitTieNote(result.sql, (sql) => runSql(o, sql));
    return finalEvent(host, result, check, { note: [codes, tie].filter(Boolean).join(' ') || null });
  };
  async function* check(result: OkResult, checked: string[], why: string[]): AsyncGenerator<AgentEvent, Check> {
    step++;
    return yield* checkAnswer(host, result, checked, why);
  }

  /** Hands over to the agent (Auto), else ends with `fallback` or the error. */
  async function* settle(reason: string, fallback?: { result: OkResult; check: Check }): AsyncGenerator<AgentEvent> {
    if (o.handOver) {
      const carryOver = attempts.join('\n\n');
      yield ev({ type: 'route', path: 'agent', reason });
      yield* o.handOver({ reason, carryOver, step, total });
      return;
    }
    if (fallback) yield finalOf(fallback.result, fallback.check);
    else yield fail('gave_up', reason);
  }

  try {
    for (let turn = 1; turn <= ONE_SHOT_MAX_REQUESTS; turn++) {
      step++;
      yield ev({ type: 'status', turn, maxTurns: ONE_SHOT_MAX_REQUESTS });
      const t0 = o.now();
      const response = yield* streamTurn(
        o.model,
        { messages: [...messages], temperature: 0 },
        (text) => ev({ type: 'thought_delta', text }),
        o.signal,
      );
      yield usage(response.usage, o.now() - t0, 'agent', nextWhy);
      messages.push({ role: 'assistant', content: response.text });
      const sql = sqlFromReply(response.text);
      const explained = explanationFromReply(response.text);
      if (!sql) {
        attempts.push('The model replied without SQL.');
        yield* settle('The model replied without SQL.', checkedBefore);
        return;
      }
      const kept = pending && normalizeSql(sql) === normalizeSql(pending.sql) ? pending : null;
      pending = null;
      let result: OkResult;
      /** The result as a later turn shows it; for an empty one, the tool's facts on why (sql-repair.ts). */
      let seen: string;
      /** What the check may take as checked against the database. */
      const facts: string[] = [];
      if (kept) {
        result = kept.result;
        seen = kept.seen;
        // Kept after the check objected: the model stands by it; the check's words stay on the answer.
        if (kept.check) {
          yield await answered(result, kept.check);
          return;
        }
      } else {
        const outcome = await runSql(o, sql);
        const read = readSqlOutcome(outcome);
        if (read) yield ev({ type: 'sql', sql: read.sql, ok: read.ok, summary: read.summary });
        if (!read?.ok) {
          attempts.push(`SQL: ${jsonData(sql)}\nIt failed: ${outcome.observation}`);
          if (repairsLeft > 0) {
            repairsLeft--;
            nextWhy = 'a repair: the query failed';
            yield tell(repairMessage(outcome.observation), false);
            continue;
          }
          yield* settle(
            `The SQL still failed after ${(o.maxRepairs ?? 1) === 1 ? 'a repair' : 'its repairs'}: ${outcome.observation}`,
            checkedBefore,
          );
          return;
        }
        result = read;
        // An aggregate over nothing: execute_sql's observation says which filter emptied it.
        seen = result.empty || isZeroOrNullRow(result.rows) ? outcome.observation : resultText(result);
        // A compared value the column does not hold as written is a fact worth a turn. An empty
        // result alone is not: it can be the answer (49 of Spider's 972 references return none),
        // so the check judges it against the question, with the facts on why it is empty.
        const { unstored, stored } = o.evidence
          ? await checkStoredValues(sql, o.schema, o.tools, o.signal)
          : { unstored: [], stored: [] };
        if (unstored.length) {
          attempts.push(`SQL: ${jsonData(sql)}\nIt ran: ${resultText(result, 3)}\n${unstored.join('\n')}`);
          if (!evidenceAsked) {
            evidenceAsked = true;
            pending = { sql, result, seen };
            nextWhy = 'keep or fix: a compared value is not stored as written';
            yield tell(evidenceMessage({ result: outcome.observation, unstored }), true);
            continue;
          }
          // Changed after the evidence turn and still not supported by the data.
          yield* settle('A value the query compares with is still not stored as written after a repair.');
          return;
        }
        if (stored.length) facts.push(storedFact(stored));
      }
      const previous = o.history?.at(-1) ?? null;
      const why = checkEvidence({ question: o.question, ...result, explanation: explained, previous });
      if (why.length === 0) {
        yield await answered(result, { explanation: explained, verdict: 'unchecked' });
        return;
      }
      const checked = withAnswerWords(yield* check(result, facts, why), explained);
      checkedBefore = { result, check: checked };
      // Unsure acts only on what the result showed (empty, NULL, …): the reply's missing words alone are nothing to fix.
      const acts = checked.verdict === 'mismatch' || (checked.verdict === 'unsure' && why.some(isResultEvidence));
      if (checked.problem && acts) {
        if (!objected) {
          objected = true;
          attempts.push(
            `SQL: ${jsonData(result.sql)}\nIt ran: ${resultText(result, 3)}\nA check said ${checked.verdict}: ${jsonData(checked.problem)}`,
          );
          pending = { sql: result.sql, result, seen, check: checked };
          nextWhy = 'keep or fix: the check found a problem';
          yield tell(checkObjectionMessage({ problem: checked.problem, verdict: checked.verdict, result: seen }), true);
          continue;
        }
        // Fixed once already and the check still objects.
        if (o.handOver) {
          attempts.push(
            `SQL: ${jsonData(result.sql)}\nIt ran: ${resultText(result, 3)}\nA check said ${checked.verdict}: ${jsonData(checked.problem)}`,
          );
          yield* settle(`A check of the result still finds a problem after a repair: ${checked.problem}`);
          return;
        }
      }
      yield await answered(result, checked);
      return;
    }
    yield fail('turn_limit', `No answer within ${ONE_SHOT_MAX_REQUESTS} requests.`);
  } catch (e) {
    if (e instanceof AbortedError || o.signal?.aborted) yield fail('aborted', 'Stopped.');
    else if (e instanceof LlmError) yield fail(e.code, e.message);
    else yield fail('internal', e instanceof Error ? e.message : String(e));
  }
}

/**
 * The check as the answer shows it: the answer's own explanation where the check wrote none, and
 * an unsure check's problem as its note (said to the person, not acted on).
 */
function withAnswerWords(check: Check, explained: string | null): Check {
  const explanation = check.explanation ?? explained;
  if (check.verdict === 'unsure' && check.problem && !check.note)
    return { ...check, explanation, note: `A check was unsure: ${check.problem}` };
  return { ...check, explanation };
}

/** execute_sql with the tool time limit; a failure or time-out is an outcome, Stop throws. */
async function runSql(o: OneShotOptions, sql: string): Promise<ToolCallOutcome> {
  const limit = o.toolTimeoutMs ?? 30_000;
  try {
    return await withTimeLimit((s) => o.tools.call('execute_sql', { sql }, s), limit, o.signal);
  } catch (e) {
    if (e instanceof AbortedError) throw e;
    const observation =
      e instanceof TimeLimitError
        ? `The query did not finish within ${limit / 1000} s and was stopped.`
        : `execute_sql failed: ${errorData(toDowserError(e))}`;
    return { ok: false as const, tool: 'execute_sql', error: 'tool_failed' as const, observation, ms: limit };
  }
}
