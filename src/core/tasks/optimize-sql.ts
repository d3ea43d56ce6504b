// Optimize (Benchmark study, Zhang, Ye et al. 2024: SQL optimisation): the model proposes a faster
// query with the same result; the app decides. Both run read-only (the engine's gates), their
// full results are compared — as multisets, or in order when the original has a top-level ORDER
// BY — and each is timed, interleaved, as the median of several runs within a time budget. The
// rewrite is accepted only when the results are identical, its median is at most (1 − margin) of
// the original's and at least a millisecond less, and it won every interleaved pair of runs;
// otherwise the report says why not. Both EXPLAIN QUERY PLANs
// come back for a side-by-side view. The study's measure is reported when the results are
// identical: its C-VES counts only correct rewrites and rewards each with BIRD's VES term
// √(original time / rewrite time).

import { restoreWithheld, taskSqlText, WITHHELD_KEPT } from './other-run-sql';
import type { SqlExecutor } from '../executor';
import { LlmError, type ChatMessage, type ChatModel, type Usage } from '../llm/types';
import { jsonData } from '../tools/quote-data';
import { topLevelClauses } from '../sql/clauses';
import { dialectOf } from '../dialect/registry';
import { inDialect } from '../dialect/prompt-text';
import { toDowserError } from '../errors';
import type { QueryResult, Schema } from '../types';
import { compareResults } from './result-compare';
import { queryPlan } from './query-plan';
import { sameSqlText, sqlFromModel } from './model-sql';
import { withPrivacy, type PrivacyLevel } from '../privacy/disclose';
import { schemaForTask } from './task-schema';
import { OPTIMIZE_MARGIN, OPTIMIZE_MAX_ROWS, OPTIMIZE_MIN_SAVING_MS } from './optimize-rule';
import { DATA_RULE } from '../prompt/data-rule';

export { OPTIMIZE_MARGIN, OPTIMIZE_MAX_ROWS, OPTIMIZE_MIN_SAVING_MS };

export interface OptimizeOptions {
  sql: string;
  schema: Schema;
  model: ChatModel;
  /** What of the cell values may reach the model (privacy/disclose.ts); default full. */
  privacy?: PrivacyLevel;
  exec: SqlExecutor;
  signal?: AbortSignal;
  /** Timed runs of each query (default 7). */
  runs?: number;
  /** Time for all timed runs, ms (default 10 s): fewer runs when it is spent (at least one each). */
  timeBudgetMs?: number;
  margin?: number;
  /** Least saving of the median that counts, ms (default OPTIMIZE_MIN_SAVING_MS). */
  minSavingMs?: number;
  maxRows?: number;
  /** Milliseconds clock (performance.now); tests inject one to make "slower" deterministic. */
  clock?: () => number;
  /** The SQL was written in another run (an answer in the editor): its literals are values (other-run-sql.ts). */
  sqlFromAnotherRun?: boolean;
}

export interface TimedQuery {
  sql: string;
  plan: string[];
  timesMs: number[];
  medianMs: number | null;
  rows: number | null;
}

export interface OptimizeReport {
  status: 'accepted' | 'rejected' | 'failed';
  /** Why, in one or two sentences. */
  reason: string;
  original: TimedQuery;
  rewrite: TimedQuery | null;
  /** Null when the results were not compared (the rewrite failed, or there was none). */
  sameResults: boolean | null;
  comparedInOrder: boolean;
  margin: number;
  /** original median / rewrite median. */
  speedup: number | null;
  /** √(original / rewrite), only for a rewrite with identical results (the study's C-VES term). */
  cVes: number | null;
  usage: Usage | null;
}

const SYSTEM = `You make SQLite queries faster.
Rewrite the query so that it returns exactly the same result (same columns, same rows, same order when it orders) and runs faster in SQLite: use the indexes, avoid needless subqueries, joins, sorts and DISTINCT.
Reply with the SQL only: no explanation, no Markdown. If it cannot be made faster, reply with the query unchanged.
${DATA_RULE}`;

export function optimizePrompt(input: {
  sql: string;
  schema: Schema;
  plan: string[];
  sqlFromAnotherRun?: boolean;
}): ChatMessage[] {
  const user = [
    inDialect('### SQLite tables, with their columns:', input.schema.dialect),
    schemaForTask(input.schema, input.sql, { indexes: true }),
    `### Query: ${taskSqlText(input.sql, input.schema, input.sqlFromAnotherRun)}`,
    `### How ${dialectOf(input.schema.dialect).label} runs it (${dialectOf(input.schema.dialect).plan.name}):`,
    ...input.plan.map((l) => jsonData(l)),
    'Faster SQL:',
  ].join('\n');
  return [
    { role: 'system', content: inDialect(SYSTEM, input.schema.dialect) },
    { role: 'user', content: user },
  ];
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const blank = (sql: string): TimedQuery => ({ sql, plan: [], timesMs: [], medianMs: null, rows: null });

export async function optimizeSql(o: OptimizeOptions): Promise<OptimizeReport> {
  const margin = o.margin ?? OPTIMIZE_MARGIN;
  const maxRows = o.maxRows ?? OPTIMIZE_MAX_ROWS;
  const clock = o.clock ?? (() => performance.now());
  const inOrder = topLevelClauses(o.sql).orderBy !== null;
  const original = blank(o.sql);
  let usage: Usage | null = null;
  const report = (
    status: OptimizeReport['status'],
    reason: string,
    rest: Partial<OptimizeReport> = {},
  ): OptimizeReport => ({
    status,
    reason,
    original,
    rewrite: null,
    sameResults: null,
    comparedInOrder: inOrder,
    margin,
    speedup: null,
    cVes: null,
    usage,
    ...rest,
  });
  const full = (sql: string) => o.exec.query(sql, { maxRows });

  let before: QueryResult;
  try {
    dialectOf(o.schema.dialect).assertRead(o.sql);
    original.plan = await queryPlan(o.exec, o.sql, o.schema.dialect);
    before = await full(o.sql);
  } catch (e) {
    return report('failed', `The SQL itself does not run: ${toDowserError(e, 'sql_error').message}`);
  }
  original.rows = before.rows.length;
  if (before.truncated)
    return report(
      'failed',
      `The result has more than ${maxRows} rows: too many to compare in full, so nothing is judged.`,
    );

  let sql: string;
  try {
    const reply = await proposeRewrite(o, original.plan);
    usage = reply.usage;
    if (!reply.sql) return report('rejected', 'The model replied without SQL.');
    if (reply.unresolved) return report('rejected', WITHHELD_KEPT, { rewrite: blank(reply.sql) });
    sql = reply.sql;
  } catch (e) {
    const message = e instanceof LlmError || e instanceof Error ? e.message : String(e);
    return report('failed', `The model call failed: ${message}`);
  }
  const rewrite = blank(sql);
  if (sameSqlText(sql, o.sql)) return report('rejected', 'The model proposed no change.', { rewrite });

  let after: QueryResult;
  try {
    dialectOf(o.schema.dialect).assertRead(sql);
    rewrite.plan = await queryPlan(o.exec, sql, o.schema.dialect);
    after = await full(sql);
  } catch (e) {
    return report('rejected', `The rewrite does not run: ${toDowserError(e, 'sql_error').message}`, { rewrite });
  }
  rewrite.rows = after.rows.length;
  if (after.truncated)
    return report('rejected', `The rewrite returns more than ${maxRows} rows, the original ${before.rows.length}.`, {
      rewrite,
      sameResults: false,
    });
  const same = compareResults(before, after, { inOrder });
  if (!same.same) return report('rejected', `Different results: ${same.why}.`, { rewrite, sameResults: false });

  let byServer: boolean;
  try {
    byServer = await timeBoth(o, original, rewrite, full, clock);
  } catch (e) {
    return report('failed', `Timing stopped: ${toDowserError(e, 'sql_error').message}`, { rewrite, sameResults: true });
  }
  const a = original.medianMs!;
  const b = rewrite.medianMs!;
  // A clock can read 0 ms for a tiny query; a floor keeps the ratios finite.
  const speedup = Math.max(a, 0.01) / Math.max(b, 0.01);
  const cVes = Math.sqrt(speedup);
  const rest = { rewrite, sameResults: true, speedup, cVes };
  const timing = `median ${fmt(b)} ms against ${fmt(a)} ms (${original.timesMs.length} runs each${byServer ? ', timed by the server' : ''})`;
  const minSaving = o.minSavingMs ?? OPTIMIZE_MIN_SAVING_MS;
  // Interleaved pairs: on a loaded machine a burst can slow a few runs of either query, so the
  // medians alone accept the same query against itself too often (decision 050); a rewrite that
  // is really faster wins every pair. With 7 pairs, chance alone does that once in 128.
  const wins = rewrite.timesMs.filter((t, i) => t < original.timesMs[i]).length;
  const pairs = rewrite.timesMs.length;
  if (b <= a * (1 - margin) && a - b >= minSaving && wins === pairs)
    return report('accepted', `Identical results, and faster: ${timing}, ${speedup.toFixed(2)}× as fast.`, rest);
  const why =
    b >= a
      ? 'not faster'
      : b > a * (1 - margin)
        ? `not faster by the margin of ${Math.round(margin * 100)}%`
        : a - b < minSaving
          ? `it saves less than ${minSaving} ms, within timing noise`
          : `it was faster in only ${wins} of ${pairs} interleaved runs, within timing noise`;
  return report('rejected', `Identical results, but ${why}: ${timing}.`, rest);
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));

/** Interleaved runs (A, B, A, B …) so drift on a shared machine falls on both alike. */
/** The model's rewrite, the values it could not see put back where it kept their places (other-run-sql.ts). */
async function proposeRewrite(
  o: OptimizeOptions,
  plan: string[],
): Promise<{ sql: string; usage: Usage | null; unresolved: boolean }> {
  const policy = { level: o.privacy ?? 'full', question: '' } as const;
  const reply = await sqlFromModel(
    withPrivacy(o.model, policy),
    optimizePrompt({ sql: o.sql, schema: o.schema, plan, sqlFromAnotherRun: o.sqlFromAnotherRun }),
    o.signal,
  );
  const restored = o.sqlFromAnotherRun && reply.sql ? restoreWithheld(reply.sql, o.sql, policy, o.schema) : null;
  return {
    sql: restored && !restored.unresolved ? restored.sql : reply.sql,
    usage: reply.usage,
    unresolved: !!restored?.unresolved,
  };
}

async function timeBoth(
  o: OptimizeOptions,
  a: TimedQuery,
  b: TimedQuery,
  full: (sql: string) => Promise<QueryResult>,
  clock: () => number,
): Promise<boolean> {
  const runs = Math.max(1, o.runs ?? 7);
  const budget = o.timeBudgetMs ?? 10_000;
  const byEngine = dialectOf(o.schema.dialect).timing;
  const start = clock();
  // Whether every run was timed by the server: a run whose plan did not say is the clock's.
  let byServer = Boolean(byEngine);
  for (let i = 0; i < runs; i++) {
    if (i > 0 && clock() - start > budget) break;
    for (const q of [a, b]) {
      if (o.signal?.aborted) throw new Error('Stopped.');
      const t0 = clock();
      // A server times the query itself (without the network and the rows on their way back).
      const told = byEngine ? byEngine.ms((await o.exec.query(byEngine.statement(q.sql), { maxRows: 1 })).rows) : null;
      if (!byEngine) await full(q.sql);
      if (told === null) byServer = false;
      q.timesMs.push(told ?? clock() - t0);
    }
  }
  a.medianMs = median(a.timesMs);
  b.medianMs = median(b.timesMs);
  return byServer;
}
