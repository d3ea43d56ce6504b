// Scores one answer by execution, as the official evaluators run the two queries:
// Spider runs the reference first (a failing reference stops its evaluator: here the question is
// skipped), then the prediction, each within 60 s; BIRD runs the prediction, then the reference,
// both within one 30 s limit, and anything that fails or runs out of time scores 0.
// Queries run through `query` (read-only, on the caller's engine, rows capped by the caller).

import { toDowserError } from '../errors';
import type { QueryResult } from '../types';
import { birdSetEq, softF1, spiderPrepare, spiderResultEq } from './exec-match';
import { pyRows, type PyRow } from './py-values';
import { keepsOtherTiedRows, tieProbe } from './ties';

export type Dataset = 'spider' | 'bird';

/** Runs one statement within `timeLimitMs`; throws (DowserError `timeout`, `sql_error` …) on failure. */
export type TimedQuery = (sql: string, timeLimitMs: number) => Promise<QueryResult>;

/** The evaluators' limits: exec_eval.py TIMEOUT = 60 s per query; BIRD meta_time_out = 30 s for both. */
export const OFFICIAL_TIME_LIMIT_MS: Record<Dataset, number> = { spider: 60_000, bird: 30_000 };

export type ScoreOutcome =
  | { kind: 'unscorable'; reason: string }
  | {
      kind: 'scored';
      ex: 0 | 1;
      /** BIRD only. */
      softF1: number | null;
      goldRows: PyRow[];
      /** Null when the prediction failed (or there was none). */
      predRows: PyRow[] | null;
      predError: string | null;
      /** BIRD only: the reference failed, which the official evaluator scores as 0. */
      goldError: string | null;
      orderMatters: boolean;
      /** Wrong by Spider's rule, but only in which rows tied at the reference's LIMIT it kept (ties.ts). */
      tiedAtLimit?: true;
      /** The results as read (null when the query failed). */
      gold: QueryResult | null;
      pred: QueryResult | null;
    };

export interface ScoreInput {
  dataset: Dataset;
  goldSql: string;
  predSql: string | null;
  /** Runs the prediction (and the reference, unless `goldQuery` is given). */
  query: TimedQuery;
  /**
   * Runs the reference on the dataset's own SQLite file when the answer is asked on another
   * engine (issue 36: Spider on PostgreSQL); its results are compared after `serverValues`.
   */
  goldQuery?: TimedQuery;
  timeLimitMs?: number;
  now?: () => number;
}

type Attempt = { ok: true; result: QueryResult } | { ok: false; error: string };

async function attempt(query: TimedQuery, sql: string, limitMs: number): Promise<Attempt> {
  if (limitMs <= 0) return { ok: false, error: 'timeout: no time left within the limit' };
  try {
    return { ok: true, result: await query(sql, limitMs) };
  } catch (e) {
    const err = toDowserError(e);
    return { ok: false, error: `${err.code}: ${err.message}` };
  }
}

/**
 * A result from a server engine as SQLite's sqlite3 module would give it, so it compares with a
 * reference run on the SQLite file (docs/how-to/evaluate.md): a number the engine kept as text
 * to lose no digit (PostgreSQL's numeric, `QueryResult.columnKinds` 'number') becomes a double, as
 * SQLite computes it; a boolean (`true`/`false`) becomes 1 or 0, as SQLite stores it. Text stays
 * text. A SQLite result has no `columnKinds` and is returned as it is.
 */
export function serverValues(result: QueryResult): QueryResult {
  const kinds = result.columnKinds;
  if (!kinds) return result;
  const rows = result.rows.map((row) =>
    row.map((v, j) => {
      if (typeof v !== 'string') return v;
      if (kinds[j] === 'number' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      if (kinds[j] === 'boolean') return v === 'true' ? 1 : v === 'false' ? 0 : v;
      return v;
    }),
  );
  return { ...result, rows };
}

const TRUNCATED = 'the reference returns more rows than the comparison reads';

async function scoreSpider(input: ScoreInput, limit: number): Promise<ScoreOutcome> {
  const prepared = spiderPrepare(input.goldSql, input.predSql ?? '');
  const gold = await attempt(input.goldQuery ?? input.query, prepared.gold, limit);
  if (!gold.ok) return { kind: 'unscorable', reason: `reference SQL fails: ${gold.error}` };
  if (gold.result.truncated) return { kind: 'unscorable', reason: TRUNCATED };
  const goldRows = pyRows(serverValues(gold.result));
  const base = { softF1: null, goldRows, goldError: null, orderMatters: prepared.orderMatters, gold: gold.result };
  const failed = { ex: 0 as const, predRows: null, pred: null };
  if (input.predSql === null) return { kind: 'scored', ...failed, predError: null, ...base };
  const pred = await attempt(input.query, prepared.pred, limit);
  if (!pred.ok) return { kind: 'scored', ...failed, predError: pred.error, ...base };
  const predRows = pyRows(serverValues(pred.result));
  const ex = spiderResultEq(goldRows, predRows, { orderMatters: prepared.orderMatters }) ? 1 : 0;
  const tied = ex === 0 && (await tiedAtLimit(input, prepared, predRows, limit));
  return {
    kind: 'scored',
    ex,
    predRows,
    predError: null,
    pred: pred.result,
    ...base,
    ...(tied ? { tiedAtLimit: true } : {}),
  };
}

/** The reference run again without its LIMIT, to see whether the answer kept other tied rows. */
async function tiedAtLimit(
  input: ScoreInput,
  prepared: { gold: string; orderMatters: boolean },
  predRows: PyRow[],
  limit: number,
): Promise<boolean> {
  const probe = tieProbe(prepared.gold);
  if (!probe) return false;
  const run = await attempt(input.goldQuery ?? input.query, probe.sql, limit);
  if (!run.ok || run.result.truncated) return false;
  return keepsOtherTiedRows(pyRows(serverValues(run.result)), probe, predRows, prepared);
}

async function scoreBird(input: ScoreInput, limit: number): Promise<ScoreOutcome> {
  const now = input.now ?? Date.now;
  const t0 = now();
  const pred = input.predSql === null ? null : await attempt(input.query, input.predSql, limit);
  // Whatever time the prediction left is the reference's; a failed prediction leaves the reference
  // the whole limit, since its rows only serve the miss analysis then.
  const goldLimit = pred?.ok ? limit - (now() - t0) : limit;
  const gold = await attempt(input.goldQuery ?? input.query, input.goldSql, goldLimit);
  if (gold.ok && gold.result.truncated) return { kind: 'unscorable', reason: TRUNCATED };
  const goldRows = gold.ok ? pyRows(serverValues(gold.result)) : [];
  const base = {
    goldRows,
    goldError: gold.ok ? null : gold.error,
    orderMatters: false,
    gold: gold.ok ? gold.result : null,
  };
  if (!pred?.ok)
    return { kind: 'scored', ex: 0, softF1: 0, predRows: null, pred: null, predError: pred?.error ?? null, ...base };
  const predRows = pyRows(serverValues(pred.result));
  const scored = { kind: 'scored' as const, predRows, pred: pred.result, predError: null, ...base };
  if (!gold.ok) return { ...scored, ex: 0, softF1: 0 };
  return { ...scored, ex: birdSetEq(goldRows, predRows) ? 1 : 0, softF1: softF1(goldRows, predRows) };
}

export function scoreAnswer(input: ScoreInput): Promise<ScoreOutcome> {
  const limit = input.timeLimitMs ?? OFFICIAL_TIME_LIMIT_MS[input.dataset];
  return input.dataset === 'spider' ? scoreSpider(input, limit) : scoreBird(input, limit);
}
