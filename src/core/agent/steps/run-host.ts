// What a step handler may use of the run it belongs to (loop.ts implements it): the resolved
// options, the run's mutable state, events and observations, and the tool call with its limits.
// Each tool the loop treats specially has its handler in this folder; the loop only dispatches.

import type { Plan } from '../plan';
import type { ChatModel, Usage } from '../../llm/types';
import type { ToolCallOutcome } from '../../tools/registry';
import type { Schema } from '../../types';
import type { AskUser } from '../ask-user';
import type { AgentErrorCode, AgentEvent, AgentEventBody, Verdict } from '../events';
import type { RepairGuard } from '../guards';
import type { OnPlan } from '../plan-pause';
import type { AgentToolName } from '../prompt';
import type { SqlOutcome } from '../sql-outcome';
import type { TurnCall } from '../turns';
import type { PriorTurn } from '../thread';
import type { CodeAssumption } from '../code-evidence';

export type Step = 'continue' | 'end';

/** What a check of a result says: the explanation, a verdict, and what is wrong when it is not a match. */
export interface AnswerCheck {
  explanation: string | null;
  verdict: Verdict;
  /** What is wrong, when the verdict is not a match and the check said what. */
  problem?: string;
  /** Why the explanation is missing, when it is. */
  note?: string;
}
export type ArgsCall = Extract<TurnCall, { args: unknown }>;
export type OkSqlOutcome = Extract<SqlOutcome, { ok: true }>;

/** The options a step reads, defaults applied. */
export interface StepOptions {
  question: string;
  hints?: string;
  model: ChatModel;
  schema: Schema;
  signal?: AbortSignal;
  finalRows: number;
  now: () => number;
  onPlan?: OnPlan;
  askUser?: AskUser | 'first-option';
  /** The conversation's earlier turns: the check reads the question against them. */
  history?: readonly PriorTurn[];
  /** A plan the person confirmed or edited: the check judges the answer by it too. */
  confirmedPlan?: Plan;
  /** That plan was written in another run (the plan card): the check marks its quoted values. */
  planFromAnotherRun?: boolean;
}

/** What the run remembers between turns. */
export interface RunState {
  /** A plan was submitted (or none is asked for). */
  planned: boolean;
  /** The person confirmed the plan: re-planning is refused. */
  confirmed: boolean;
  /** ask_user was used (once per run). */
  asked: boolean;
  /** Ambiguity seen in tool results so far: asking the person is allowed only after one. */
  readonly signals: string[];
  /** The SQL of the last execute_sql that ran without error (what `done {}` finishes with). */
  lastOkSql?: string;
  /** The SQL of the last execute_sql that returned rows (offered, unverified, at the turn limit). */
  lastRowsSql?: string;
  /** Every SQL that ran without error, normalised (sql-outcome.ts): the model has seen its rows. */
  readonly seenSql: Set<string>;
  /** A check of done's result objected once (the next done is final). */
  objected: boolean;
}

/** How a run finishes: unverified (the turn limit's offer), and a note of the run's own (assumed code meanings). */
export interface FinishOptions {
  unverified?: boolean;
  note?: string | null;
}

export interface RunHost {
  readonly o: StepOptions;
  readonly state: RunState;
  readonly repairs: RepairGuard;
  readonly offered: readonly AgentToolName[];
  ev(body: AgentEventBody): AgentEvent;
  fail(code: AgentErrorCode, message: string): AgentEvent;
  /** Sends an observation back to the model and reports it. */
  observe(call: TurnCall | null, text: string, ok: boolean, ms?: number): AgentEvent;
  /** One retrieval tool call with the time limit; failures and time-outs are outcomes. Stop throws. */
  runTool(name: string, args: unknown): Promise<ToolCallOutcome>;
  /** The closing events once done's SQL ran (explanation, or rows for a step check). */
  finish(result: OkSqlOutcome, options?: FinishOptions): AsyncGenerator<AgentEvent>;
  /** The code columns a query compares without the question saying which code is meant (code-evidence.ts). */
  codeAssumptions(sql: string): Promise<CodeAssumption[]>;
  /** The agent's answer is checked when its explanation is missing (a step check shows rows instead). */
  readonly checksAnswer: boolean;
  /** A check of the result as its own request (a step of the run): verdict, problem, explanation. */
  checkAnswer(result: OkSqlOutcome): AsyncGenerator<AgentEvent, AnswerCheck>;
  /** Counts tokens of a model call into the run's totals. */
  usageEvent(usage: Usage | null, ms: number, phase: 'agent' | 'explain', why?: string): AgentEvent;
}
