// What an agent run reports, in order, as an async generator: the page's store appends these
// and the CLI writes them as JSONL, so every field is plain data (structured-clone safe).
// A run ends with exactly one terminal event: `final` or `error` (`step_preview` or `error` for
// a step check).

import type { LlmErrorCode, Usage } from '../llm/types';
import type { SqlValue } from '../types';
import type { Plan, PlanProblem } from './plan';

/**
 * The check's verdict on the final answer; 'unchecked': nothing in the result called for a check
 * (issue 37), the answer stands as the model wrote it, with its own explanation.
 */
export type Verdict = 'match' | 'mismatch' | 'unsure' | 'unchecked';

export type RoutePath = 'grounded' | 'agent';

export type AgentErrorCode =
  | 'aborted'
  | 'turn_limit'
  | 'repeated_call'
  | 'gave_up'
  | 'internal'
  /** A plan given as confirmed (or a step to check) names things the database does not have. */
  | 'bad_plan'
  /** The answer's time or reply budget was spent (answer-budget.ts). */
  | 'answer_limit'
  | LlmErrorCode;

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  /** Of the input, how much the provider read from its prompt cache (when it says). */
  cachedInputTokens: number;
  /** True when any step's numbers were estimated or missing. */
  estimated: boolean;
}

export const NO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, estimated: false };

/** The running total after one more model call (`usage` null: the provider reported nothing). */
export function addUsage(total: UsageTotals, usage: Usage | null): UsageTotals {
  return {
    inputTokens: total.inputTokens + (usage?.inputTokens ?? 0),
    outputTokens: total.outputTokens + (usage?.outputTokens ?? 0),
    cachedInputTokens: total.cachedInputTokens + (usage?.cachedInputTokens ?? 0),
    estimated: total.estimated || !usage || usage.estimated,
  };
}

export type AgentEventBody =
  | { type: 'status'; turn: number; maxTurns: number }
  /**
   * Auto's path (issue 22): 'grounded', one request with the schema and its stored values and
   * more only when the result calls for it; 'agent', the tools — from the start (the schema is
   * over the budget, a confirmed plan) or taking over with what was learned. `reason` says why.
   */
  | { type: 'route'; path: RoutePath; reason: string }
  | {
      type: 'plan';
      plan: Plan;
      problems: PlanProblem[];
      /** The person confirmed this plan (given to the run, or Continue after a pause): the model does not re-plan. */
      confirmed?: boolean;
      /** The person changed the model's plan before continuing. */
      edited?: boolean;
    }
  /** The run waits for the person (pause after plan): Continue, an edited plan, or Stop. */
  | { type: 'plan_waiting'; plan: Plan }
  /** The model asks the person (ask_user); the answer comes back as the next observation. */
  | {
      type: 'ask';
      question: string;
      options: string[];
      callId?: string;
      /** No person could answer (CLI --non-interactive): this option was taken by default. */
      defaultAnswer?: string;
    }
  /**
   * A piece of the model's reply text while the call is still running (raw: in the text protocol
   * it includes the Action line). The parsed `thought` event still follows once the turn is whole.
   */
  | { type: 'thought_delta'; text: string }
  | { type: 'thought'; text: string }
  | { type: 'action'; tool: string; args: unknown; callId?: string }
  | {
      type: 'observation';
      tool: string;
      /** What the person sees: the values as stored. */
      text: string;
      ok: boolean;
      ms: number;
      callId?: string;
      /** What the model read instead, when the privacy level withheld values from it. */
      modelText?: string;
    }
  | { type: 'sql'; sql: string; ok: boolean; summary: string }
  | {
      type: 'final';
      sql: string;
      columns: string[];
      rows: SqlValue[][];
      /** Rows the statement returns in all, when known (rows above are capped). */
      totalRows: number | null;
      truncated: boolean;
      explanation: string | null;
      verdict: Verdict;
      /** Why the explanation is missing, when it is. */
      note?: string;
      /**
       * The agent did not finish: this is the last SQL that ran and returned rows, offered when the
       * run hit its turn limit. Shown as unverified in the page, the CLI and exports.
       */
      unverified?: boolean;
    }
  /** The end of a step check (checkStep): one sub-question's small SQL and its first rows. */
  | {
      type: 'step_preview';
      /** The sub-question checked, 1-based as people count (and as `dowser ask --check-step N`). */
      subQuestion: number;
      sql: string;
      columns: string[];
      rows: SqlValue[][];
      totalRows: number | null;
      truncated: boolean;
      /** The step check ran out of turns: the last SQL that returned rows, not confirmed. */
      unverified?: boolean;
    }
  | { type: 'error'; code: AgentErrorCode; message: string }
  | {
      type: 'usage';
      /** This model call's usage; null when the provider reported none. */
      usage: Usage | null;
      total: UsageTotals;
      /** Wall time of the model call. */
      ms: number;
      /** 'agent' turns or the closing 'explain' call. */
      phase: 'agent' | 'explain';
      /** Why this request was made (Auto and Direct): the answer, a repair, the evidence that called for a check. */
      why?: string;
    };

/** `step`: the model call the event belongs to (1-based; 0 before the first). `at`: epoch ms. */
export type AgentEvent = AgentEventBody & { step: number; at: number };

export type AgentEventType = AgentEvent['type'];
