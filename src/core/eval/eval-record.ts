// One evaluated question, as `dowser eval` writes it (a line of results.jsonl) and the page's
// Evaluate view keeps it. Plain data.

import type { Verdict } from '../agent/events';
import type { MissClass } from './miss-class';

/**
 * correct / wrong: scored. failed: the model provider was unreachable or refused (not the
 * answer's fault; `--retry-failed` runs them again). skipped: could not be run or scored (no
 * database, no turn file, a reference that fails).
 */
export type QuestionStatus = 'correct' | 'wrong' | 'failed' | 'skipped';

export interface QuestionCost {
  inputTokens: number;
  /** Part of inputTokens the provider served from its prompt cache. */
  cachedTokens: number;
  /** Input tokens of the first model request (the prompt before any turn). */
  firstRequestTokens: number;
  outputTokens: number;
  /** Model requests (agent turns, repairs and the explanation). */
  requests: number;
  /** Tool calls the model made. */
  toolCalls: number;
  seconds: number;
  /** Some token numbers were estimated (the provider reported none). */
  estimated: boolean;
}

export interface QuestionRecord {
  /** BIRD's question_id, else the 0-based position in the question file. */
  id: string;
  index: number;
  dbId: string;
  question: string;
  /** Spider hardness or BIRD difficulty; null when unknown. */
  difficulty: string | null;
  /** SParC / CoSQL: the interaction and the 0-based turn in it. */
  interaction?: number;
  turn?: number;
  /** Distinct tables the reference SQL reads. */
  joinedTables: number;
  status: QuestionStatus;
  /** Why skipped or failed, or how the run ended without an answer. */
  reason: string | null;
  goldSql: string;
  finalSql: string | null;
  /** Execution match (1/0); null unless scored. */
  ex: 0 | 1 | null;
  /** BIRD mini-dev soft F1 in [0, 1]; null for Spider or when not scored. */
  softF1: number | null;
  /** The model's own verdict on its answer (explanation step). */
  verdict: Verdict | null;
  miss: MissClass | null;
  cost: QuestionCost;
  /** Relative path of the run's events. */
  transcript: string | null;
  finishedAt: string;
}

export const NO_COST: QuestionCost = {
  inputTokens: 0,
  cachedTokens: 0,
  firstRequestTokens: 0,
  outputTokens: 0,
  requests: 0,
  toolCalls: 0,
  seconds: 0,
  estimated: false,
};
