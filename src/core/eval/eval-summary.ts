// The summary of an evaluation: execution accuracy (and BIRD's soft F1) overall and by
// difficulty, cost per question (means and percentiles), and the breakdowns the Markdown report
// shows. Percentages are 0-100 with two decimals, as the official evaluators print them.

import type { QuestionRecord } from './eval-record';
import { MISS_CLASSES, type MissClass } from './miss-class';

export interface Distribution {
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  max: number;
}

export interface Score {
  n: number;
  ex: number | null;
  softF1?: number | null;
}

/** summary.json: exactly the fields of the issue. */
export interface EvalSummary {
  ex: number | null;
  softF1?: number | null;
  n: number;
  skipped: number;
  failed: number;
  byDifficulty: Record<string, Score>;
  tokensPerQuestion: { input: Distribution; output: Distribution; cached: Distribution; total: Distribution };
  requestsPerQuestion: Distribution;
  secondsPerQuestion: Distribution;
  /** SParC / CoSQL: execution match over turns (= ex) and over interactions, and by turn position (1-based). */
  questionMatch?: number | null;
  interactionMatch?: number | null;
  turns?: number;
  interactions?: number;
  byTurn?: Record<string, Score & { inputTokens: number }>;
}

/** What the Markdown report adds (details.json). */
export interface EvalDetails {
  byJoinedTables: Record<string, Score>;
  misses: Record<MissClass, number>;
  toolCallsPerQuestion: Distribution;
  /** Input tokens of each question's first model request. */
  firstRequestTokens: Distribution;
  /** Some token numbers were estimated (a provider reported none). */
  tokensEstimated: boolean;
  /** Selected questions with no result yet (an interrupted run). */
  pending: number;
  skippedReasons: Record<string, number>;
  failedReasons: Record<string, number>;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentile. */
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.length ? sorted.reduce((s, x) => s + x, 0) / sorted.length : 0;
  return {
    mean: round(mean),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted.at(-1) ?? 0),
  };
}

function score(records: QuestionRecord[], withSoftF1: boolean): Score {
  const scored = records.filter((r) => r.ex !== null);
  const s: Score = {
    n: scored.length,
    ex: scored.length ? round((100 * scored.filter((r) => r.ex === 1).length) / scored.length) : null,
  };
  if (withSoftF1)
    s.softF1 = scored.length ? round((100 * scored.reduce((t, r) => t + (r.softF1 ?? 0), 0)) / scored.length) : null;
  return s;
}

function groupBy(records: QuestionRecord[], key: (r: QuestionRecord) => string, order: string[]) {
  const groups = new Map<string, QuestionRecord[]>(order.map((k) => [k, []]));
  for (const r of records) {
    const k = key(r);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(r);
  }
  return [...groups].filter(([, rs]) => rs.length > 0);
}

/** Counts by the reason's head (`llm_server: …` counts as llm_server). */
const tally = (xs: string[]) =>
  xs.reduce<Record<string, number>>((m, x) => {
    const k = x.split(':')[0].trim();
    m[k] = (m[k] ?? 0) + 1;
    return m;
  }, {});

export const DIFFICULTY_ORDER = ['easy', 'medium', 'hard', 'extra', 'simple', 'moderate', 'challenging', 'unknown'];
const joinedKey = (r: QuestionRecord) => (r.joinedTables >= 4 ? '4+' : String(r.joinedTables));

export function summarize(
  records: QuestionRecord[],
  options: { softF1: boolean; selected?: number },
): { summary: EvalSummary; details: EvalDetails } {
  const scored = records.filter((r) => r.status === 'correct' || r.status === 'wrong');
  const cost = (f: (r: QuestionRecord) => number) => distribution(scored.map(f));
  const total = score(scored, options.softF1);
  const summary: EvalSummary = {
    ex: total.ex,
    ...(options.softF1 ? { softF1: total.softF1 ?? null } : {}),
    n: total.n,
    skipped: records.filter((r) => r.status === 'skipped').length,
    failed: records.filter((r) => r.status === 'failed').length,
    byDifficulty: Object.fromEntries(
      groupBy(scored, (r) => r.difficulty ?? 'unknown', DIFFICULTY_ORDER).map(([k, rs]) => [
        k,
        score(rs, options.softF1),
      ]),
    ),
    tokensPerQuestion: {
      input: cost((r) => r.cost.inputTokens),
      output: cost((r) => r.cost.outputTokens),
      cached: cost((r) => r.cost.cachedTokens),
      total: cost((r) => r.cost.inputTokens + r.cost.outputTokens),
    },
    requestsPerQuestion: cost((r) => r.cost.requests),
    secondsPerQuestion: cost((r) => r.cost.seconds),
  };
  if (records.some((r) => r.interaction !== undefined)) Object.assign(summary, conversationScores(records, scored));
  const misses = Object.fromEntries(MISS_CLASSES.map((c) => [c, 0])) as Record<MissClass, number>;
  for (const r of scored) if (r.status === 'wrong' && r.miss) misses[r.miss]++;
  const details: EvalDetails = {
    byJoinedTables: Object.fromEntries(
      groupBy(scored, joinedKey, ['0', '1', '2', '3', '4+']).map(([k, rs]) => [k, score(rs, options.softF1)]),
    ),
    misses,
    toolCallsPerQuestion: cost((r) => r.cost.toolCalls),
    firstRequestTokens: cost((r) => r.cost.firstRequestTokens ?? 0),
    tokensEstimated: scored.some((r) => r.cost.estimated),
    pending: Math.max(0, (options.selected ?? records.length) - records.length),
    skippedReasons: tally(records.filter((r) => r.status === 'skipped').map((r) => r.reason ?? 'unknown')),
    failedReasons: tally(records.filter((r) => r.status === 'failed').map((r) => r.reason ?? 'unknown')),
  };
  return { summary, details };
}

/**
 * SParC's two official figures, by execution: question match over the scored turns, and
 * interaction match over the interactions whose every turn was scored (one that was skipped or
 * failed cannot be judged whole); with the match and mean input tokens by turn position.
 */
function conversationScores(records: QuestionRecord[], scored: QuestionRecord[]) {
  const byInteraction = new Map<number, QuestionRecord[]>();
  for (const r of records)
    if (r.interaction !== undefined) byInteraction.set(r.interaction, [...(byInteraction.get(r.interaction) ?? []), r]);
  const whole = [...byInteraction.values()].filter((rs) => rs.every((r) => r.ex !== null));
  const byTurn = Object.fromEntries(
    groupBy(scored, (r) => String((r.turn ?? 0) + 1), []).map(([k, rs]) => [
      k,
      { ...score(rs, false), inputTokens: round(rs.reduce((t, r) => t + r.cost.inputTokens, 0) / rs.length) },
    ]),
  );
  return {
    questionMatch: score(scored, false).ex,
    interactionMatch: whole.length
      ? round((100 * whole.filter((rs) => rs.every((r) => r.ex === 1)).length) / whole.length)
      : null,
    turns: scored.length,
    interactions: whole.length,
    byTurn,
  };
}
