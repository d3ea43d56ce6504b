// One question evaluated, shared by `dowser eval` and the page's Evaluate view: the product
// answers it (run-for-eval.ts), the answer and the reference run and are compared by the
// dataset's official rule (score-answer.ts), a wrong answer gets its cause (miss-class.ts), and
// the result is one QuestionRecord. Where the database and model come from is the caller's.

import type { AnswerLimits } from '../agent/answer-budget';
import type { AgentEvent } from '../agent/events';
import type { AgentTools } from '../agent/loop';
import type { AgentMode } from '../agent/prompt';
import type { ChatModel } from '../llm/types';
import type { PrivacyLevel } from '../privacy/disclose';
import type { PriorTurn } from '../agent/thread';
import type { QuestionLink } from '../retrieval/linker';
import { tablesMentioned } from '../tools/sql-repair';
import type { QueryResult, Schema } from '../types';
import { NO_COST, type QuestionRecord } from './eval-record';
import { classifyMiss } from './miss-class';
import { runForEval, type EvalMode } from './run-for-eval';
import { scoreAnswer, type Dataset, type TimedQuery } from './score-answer';

export interface EvalQuestion {
  id: string;
  index: number;
  dbId: string;
  question: string;
  goldSql: string;
  difficulty: string | null;
  /** SParC / CoSQL: the interaction and the turn in it. */
  interaction?: number;
  turn?: number;
}

export interface EvaluateInput {
  q: EvalQuestion;
  dataset: Dataset;
  mode: EvalMode;
  hints?: string;
  model: ChatModel;
  tools: AgentTools;
  schema: Schema;
  links?: readonly QuestionLink[];
  query: TimedQuery;
  /** The reference's own database when the question is asked on another engine (ScoreInput.goldQuery). */
  goldQuery?: TimedQuery;
  timeLimitMs?: number;
  signal?: AbortSignal;
  agentMode?: AgentMode;
  maxTurns?: number;
  compactObservations?: boolean;
  /** A conversation's earlier turns, answered by the model itself (never the references). */
  history?: readonly PriorTurn[];
  /** The answer's time and reply budget (agent/answer-budget.ts): spent, the question is failed with the reason. */
  answerLimits?: AnswerLimits;
  /** The privacy level the person chose for this model (default full). */
  privacy?: PrivacyLevel;
  onEvent?: (e: AgentEvent) => void;
}

export interface Evaluated {
  record: QuestionRecord;
  events: AgentEvent[];
  /** The two results as read for scoring (for showing a miss side by side). */
  gold: QueryResult | null;
  pred: QueryResult | null;
  /** The provider refused the key or the model: nothing after this question can run. */
  fatal: string | null;
}

/** A record before the run: what is known of the question. */
export function baseRecord(q: EvalQuestion, schema?: Schema): QuestionRecord {
  return {
    id: q.id,
    index: q.index,
    dbId: q.dbId,
    question: q.question,
    difficulty: q.difficulty,
    ...(q.interaction !== undefined ? { interaction: q.interaction, turn: q.turn } : {}),
    joinedTables: schema ? tablesMentioned(q.goldSql, schema).length : 0,
    status: 'skipped',
    reason: null,
    goldSql: q.goldSql,
    finalSql: null,
    ex: null,
    softF1: null,
    verdict: null,
    miss: null,
    cost: NO_COST,
    transcript: null,
    finishedAt: '',
  };
}

const finished = (r: QuestionRecord): QuestionRecord => ({ ...r, finishedAt: new Date().toISOString() });

/** Skipped without a model call: the Spider evaluator cannot score a question whose reference fails. */
export async function referenceProblem(
  input: Pick<EvaluateInput, 'q' | 'query' | 'goldQuery' | 'timeLimitMs'>,
): Promise<string | null> {
  const r = await scoreAnswer({
    dataset: 'spider',
    goldSql: input.q.goldSql,
    predSql: null,
    query: input.query,
    goldQuery: input.goldQuery,
    timeLimitMs: input.timeLimitMs,
  });
  return r.kind === 'unscorable' ? r.reason : null;
}

/** Null when the run was stopped (nothing to record). */
export async function evaluateQuestion(input: EvaluateInput): Promise<Evaluated | null> {
  const base = baseRecord(input.q, input.schema);
  const run = await runForEval(
    {
      mode: input.mode,
      question: input.q.question,
      hints: input.hints,
      model: input.model,
      tools: input.tools,
      schema: input.schema,
      links: input.links,
      signal: input.signal,
      maxTurns: input.maxTurns,
      compactObservations: input.compactObservations,
      agentMode: input.agentMode,
      history: input.history,
      answerLimits: input.answerLimits,
      privacy: input.privacy,
    },
    input.onEvent,
  );
  const { end, events } = run;
  if (end.kind === 'stopped') return null;
  const ran = { ...base, cost: run.cost };
  const none = { events, gold: null, pred: null };
  if (end.kind === 'provider' || end.kind === 'fatal')
    return {
      ...none,
      record: finished({ ...ran, status: 'failed', reason: `${end.code}: ${end.message}` }),
      fatal: end.kind === 'fatal' ? end.message : null,
    };
  const predSql = end.kind === 'answered' ? end.sql : null;
  const verdict = end.kind === 'answered' ? end.verdict : null;
  const s = await scoreAnswer({
    dataset: input.dataset,
    goldSql: input.q.goldSql,
    predSql,
    query: input.query,
    goldQuery: input.goldQuery,
    timeLimitMs: input.timeLimitMs,
  });
  if (s.kind === 'unscorable')
    return { ...none, record: finished({ ...ran, finalSql: predSql, verdict, reason: s.reason }), fatal: null };
  const miss =
    s.ex === 1
      ? null
      : s.tiedAtLimit
        ? 'tie'
        : classifyMiss({
            dataset: input.dataset,
            goldSql: input.q.goldSql,
            predSql,
            goldRows: s.goldRows,
            predRows: s.predRows,
            orderMatters: s.orderMatters,
            columns: new Set(input.schema.tables.flatMap((t) => t.columns.map((c) => c.name.toLowerCase()))),
          });
  const reason = end.kind === 'no_answer' ? `${end.code}: ${end.message}` : (s.predError ?? s.goldError);
  const record = finished({
    ...ran,
    status: s.ex === 1 ? 'correct' : 'wrong',
    reason,
    finalSql: predSql,
    verdict,
    ex: s.ex,
    softF1: s.softF1,
    miss,
  });
  return { record, events, gold: s.gold, pred: s.pred, fatal: null };
}
