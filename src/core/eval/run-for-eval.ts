// One question answered the product's way (Auto, the agent, or Direct mode) with every event kept and
// the cost counted: tokens from the `usage` events (cached apart), requests, the model's tool
// calls and the wall time. The end of the run decides what the harness does with it: an answer
// to score, an answer-less end that counts as wrong, a provider failure to retry later, or Stop.

import type { AnswerLimits } from '../agent/answer-budget';
import type { AgentEvent, Verdict } from '../agent/events';
import { runAnswer, type AnswerMode } from '../agent/answer-mode';
import type { PrivacyLevel } from '../privacy/disclose';
import type { AgentTools } from '../agent/loop';
import type { AgentMode } from '../agent/prompt';
import type { ChatModel } from '../llm/types';
import type { PriorTurn } from '../agent/thread';
import type { QuestionLink } from '../retrieval/linker';
import type { Schema } from '../types';
import type { QuestionCost } from './eval-record';

export type EvalMode = AnswerMode;

export interface EvalRunInput {
  mode: EvalMode;
  question: string;
  hints?: string;
  model: ChatModel;
  tools: AgentTools;
  schema: Schema;
  links?: readonly QuestionLink[];
  signal?: AbortSignal;
  maxTurns?: number;
  /** Shorten acted-on observations in later requests (measured in decision 003). */
  compactObservations?: boolean;
  /** Agent mode: native tool calls or the text protocol (default: what the model supports). */
  agentMode?: AgentMode;
  /** A conversation's earlier turns (SParC, CoSQL). */
  history?: readonly PriorTurn[];
  /** The question's time and reply budget: spent, the question is failed and the run goes on. */
  answerLimits?: AnswerLimits;
  /** What of the database's values may reach the model, as for an answer the person asks for (default full). */
  privacy?: PrivacyLevel;
  now?: () => number;
}

/**
 * answered: a final SQL. no_answer: the run ended without one (turn limit, gave up …): a wrong
 * answer. provider: the model could not be reached, refused, stalled or took longer than the
 * answer's budget (not the answer's fault).
 * fatal: a configuration the whole run cannot recover from (key refused, no such model).
 * stopped: Stop / Ctrl+C; nothing to record.
 */
export type EvalRunEnd =
  | { kind: 'answered'; sql: string; verdict: Verdict }
  | { kind: 'no_answer' | 'provider' | 'fatal' | 'stopped'; code: string; message: string };

export interface EvalRun {
  end: EvalRunEnd;
  events: AgentEvent[];
  cost: QuestionCost;
}

const PROVIDER_CODES = new Set(['llm_rate_limit', 'llm_server', 'llm_network', 'llm_timeout', 'answer_limit']);
const FATAL_CODES = new Set(['llm_auth', 'llm_model_not_found']);
const STOP_CODES = new Set(['aborted', 'llm_aborted']);

export function costOf(events: readonly AgentEvent[], seconds: number): QuestionCost {
  const cost: QuestionCost = {
    inputTokens: 0,
    cachedTokens: 0,
    firstRequestTokens: 0,
    outputTokens: 0,
    requests: 0,
    toolCalls: 0,
    seconds: Math.round(seconds * 100) / 100,
    estimated: false,
  };
  for (const e of events) {
    if (e.type === 'usage') {
      if (cost.requests === 0) cost.firstRequestTokens = e.usage?.inputTokens ?? 0;
      cost.requests++;
      cost.inputTokens += e.usage?.inputTokens ?? 0;
      cost.outputTokens += e.usage?.outputTokens ?? 0;
      cost.cachedTokens += e.usage?.cachedInputTokens ?? 0;
      if (!e.usage || e.usage.estimated) cost.estimated = true;
    } else if (e.type === 'action') cost.toolCalls++;
  }
  return cost;
}

function endOf(events: readonly AgentEvent[], signal?: AbortSignal): EvalRunEnd {
  const last = events.at(-1);
  if (last?.type === 'final') return { kind: 'answered', sql: last.sql, verdict: last.verdict };
  if (signal?.aborted) return { kind: 'stopped', code: 'aborted', message: 'Stopped.' };
  if (last?.type !== 'error')
    return { kind: 'no_answer', code: 'internal', message: 'The run ended without a result.' };
  const kind = STOP_CODES.has(last.code)
    ? 'stopped'
    : PROVIDER_CODES.has(last.code)
      ? 'provider'
      : FATAL_CODES.has(last.code)
        ? 'fatal'
        : 'no_answer';
  return { kind, code: last.code, message: last.message };
}

export async function runForEval(input: EvalRunInput, onEvent?: (e: AgentEvent) => void): Promise<EvalRun> {
  const now = input.now ?? Date.now;
  const t0 = now();
  const events: AgentEvent[] = [];
  const run = runAnswer(input.mode, {
    question: input.question,
    hints: input.hints,
    model: input.model,
    tools: input.tools,
    schema: input.schema,
    links: input.links,
    signal: input.signal,
    now,
    ...(input.answerLimits ? { answerLimits: input.answerLimits } : {}),
    ...(input.privacy ? { privacy: input.privacy } : {}),
    ...(input.history?.length ? { history: input.history } : {}),
    ...(input.maxTurns ? { maxTurns: input.maxTurns } : {}),
    ...(input.compactObservations ? { compactObservations: true } : {}),
    ...(input.agentMode ? { mode: input.agentMode } : {}),
  });
  for await (const e of run) {
    events.push(e);
    onEvent?.(e);
  }
  return { end: endOf(events, input.signal), events, cost: costOf(events, (now() - t0) / 1000) };
}
