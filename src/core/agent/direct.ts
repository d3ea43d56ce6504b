// Direct mode: one model call, no tools. The reply's SQL runs read-only through the same
// execute_sql tool the agent uses; when it fails, the model gets the error with the tool's repair
// detail (close names, ambiguous columns; core/tools/sql-repair.ts) and one chance to fix it. The
// SQL that ran is explained back as the agent's is (steps/explain-step.ts). Events are the
// agent's (events.ts), so the page, the CLI and `dowser eval --mode direct` read a Direct run
// exactly as an agent run; like runAgent, it never throws and ends with one `final` or `error`.

import { LlmError, type ChatMessage, type ChatModel, type Usage } from '../llm/types';
import type { Schema } from '../types';
import { withPrivacy, type PrivacyLevel } from '../privacy/disclose';
import { AbortedError, TimeLimitError, withTimeLimit } from './abort';
import { directPrompt, repairMessage, sqlFromReply } from './direct-prompt';
import { streamTurn } from './model-turn';
import {
  addUsage,
  NO_USAGE,
  type AgentErrorCode,
  type AgentEvent,
  type AgentEventBody,
  type UsageTotals,
} from './events';
import type { AgentTools } from './loop';
import { readSqlOutcome } from './sql-outcome';
import { explainFinish } from './steps/explain-step';

export interface RunDirectOptions {
  question: string;
  hints?: string;
  model: ChatModel;
  /** What of the database's cell values may reach the model (privacy/disclose.ts); default full. */
  privacy?: PrivacyLevel;
  tools: AgentTools;
  schema: Schema;
  signal?: AbortSignal;
  /** Repairs after a failed query (default 1). */
  maxRepairs?: number;
  /** Rows of the final result carried by the `final` event. */
  finalRows?: number;
  toolTimeoutMs?: number;
  now?: () => number;
}

export async function* runDirect(options: RunDirectOptions): AsyncGenerator<AgentEvent> {
  const now = options.now ?? Date.now;
  // Every request, the repair and the explanation included, passes the privacy gate.
  options = {
    ...options,
    model: withPrivacy(options.model, { level: options.privacy ?? 'full', question: options.question }),
  };
  const calls = 1 + (options.maxRepairs ?? 1);
  let step = 0;
  let total: UsageTotals = NO_USAGE;
  const ev = (body: AgentEventBody): AgentEvent => ({ ...body, step, at: now() }) as AgentEvent;
  const fail = (code: AgentErrorCode, message: string) => ev({ type: 'error', code, message });
  const usage = (u: Usage | null, ms: number, phase: 'agent' | 'explain') => {
    total = addUsage(total, u);
    return ev({ type: 'usage', usage: u, total: { ...total }, ms, phase });
  };
  const messages: ChatMessage[] = directPrompt(options);
  try {
    for (let turn = 1; turn <= calls; turn++) {
      step = turn;
      yield ev({ type: 'status', turn, maxTurns: calls });
      const t0 = now();
      const request = { messages: [...messages], temperature: 0 };
      const response = yield* streamTurn(
        options.model,
        request,
        (text) => ev({ type: 'thought_delta', text }),
        options.signal,
      );
      yield usage(response.usage, now() - t0, 'agent');
      messages.push({ role: 'assistant', content: response.text });
      const sql = sqlFromReply(response.text);
      if (!sql) {
        yield fail('gave_up', 'The model replied without SQL.');
        return;
      }
      const outcome = await runSql(options, sql);
      const result = readSqlOutcome(outcome);
      if (result) yield ev({ type: 'sql', sql: result.sql, ok: result.ok, summary: result.summary });
      if (result?.ok) {
        step++;
        const o = { ...options, finalRows: options.finalRows ?? 20, now };
        yield* explainFinish({ o, ev, usageEvent: usage }, result);
        return;
      }
      if (turn === calls) {
        yield fail(
          'gave_up',
          `The SQL still failed after ${calls - 1} repair${calls === 2 ? '' : 's'}: ${outcome.observation}`,
        );
        return;
      }
      messages.push(repairMessage(outcome.observation));
    }
  } catch (e) {
    if (e instanceof AbortedError || options.signal?.aborted) yield fail('aborted', 'Stopped.');
    else if (e instanceof LlmError) yield fail(e.code, e.message);
    else yield fail('internal', e instanceof Error ? e.message : String(e));
  }
}

/** execute_sql with the tool time limit; a failure or time-out is an outcome, Stop throws. */
async function runSql(options: RunDirectOptions, sql: string) {
  const limit = options.toolTimeoutMs ?? 30_000;
  try {
    return await withTimeLimit((s) => options.tools.call('execute_sql', { sql }, s), limit, options.signal);
  } catch (e) {
    if (e instanceof AbortedError) throw e;
    const observation =
      e instanceof TimeLimitError
        ? `The query did not finish within ${limit / 1000} s and was stopped.`
        : `execute_sql failed: ${e instanceof Error ? e.message : String(e)}`;
    return { ok: false as const, tool: 'execute_sql', error: 'tool_failed' as const, observation, ms: limit };
  }
}
