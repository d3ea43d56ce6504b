// Value index and SearchValue on the generated database, the way the app builds and calls them:
// introspection through the engine, extractDistinctValues over the engine's read-only query
// path, ValueIndex.build, then the search_value tool through the tool registry (the index plus
// the LIKE fallback, scope resolution and the observation text the agent reads).

import { executorFor } from '../../core/executor';
import type { DbEngine } from '../../core/engine';
import { extractDistinctValues } from '../../core/retrieval/distinct-values';
import type { DistinctColumnValues } from '../../core/retrieval/types';
import { ValueIndex } from '../../core/retrieval/value-index';
import { normalizeValue } from '../../core/retrieval/value-text';
import { callTool } from '../../core/tools/registry';
import type { SearchValueContext, ValueSearchResult } from '../../core/tools/search-value';
import { makeQuerySets, type ValueQuery } from './queries';
import { ms3, now, percentile, ratio3 } from './random';

export interface QueryKindResult {
  queries: number;
  p50: number;
  p95: number;
  max: number;
  hitAt1: number;
  hitAt5: number;
  /** Queries whose tool call failed (counted as misses). */
  failures: number;
}

export interface ValueSearchBench {
  valueIndex: {
    valuesPerSec: number;
    values: number;
    extractMs: number;
    buildMs: number;
    /** CPU time of the same steps: other processes on the machine inflate wall time, not this. */
    extractCpuMs: number;
    buildCpuMs: number;
    /** valuesPerSec on CPU time: steadier than wall time on a busy machine (GC threads count too). */
    valuesPerCpuSec: number;
    /** Values per second from the first read of the table to a searchable index. */
    endToEndValuesPerSec: number;
    introspectMs: number;
    columns: number;
    policies: Record<string, number>;
  };
  searchValue: {
    exact: QueryKindResult;
    typo: QueryKindResult;
    /**
     * `ambiguous`: share of prefix queries that start more than 5 indexed values, where no
     * ranking can be sure to hit; `unambiguousHitAt5`: hit@5 over the other queries.
     */
    prefix: QueryKindResult & { ambiguous: number; unambiguousHitAt5: number };
    k: number;
    warmupQueries: number;
  };
}

const K = 5;

export async function benchValueSearch(
  engine: DbEngine,
  id: string,
  options: { queries: number; seed: number; log?(m: string): void },
): Promise<ValueSearchBench> {
  const exec = executorFor(engine, id);
  const t0 = now();
  const schema = await engine.introspect(id);
  const introspectMs = now() - t0;

  options.log?.('extracting distinct values …');
  const extract = await timed(() => extractDistinctValues(exec, schema));
  const distinct = extract.result;
  options.log?.('building the value index …');
  const build = await timed(() => ValueIndex.build(distinct));
  const index = build.result;
  const values = index.size;

  const context: SearchValueContext = { values: index, exec, columns: distinct };
  const indexed = distinct.filter((c) => c.values.length > 0);
  // Warm-up on queries of another seed, so the first measured queries do not pay for the JIT.
  const warmup = makeQuerySets(indexed, Math.min(50, options.queries), options.seed + 1000);
  for (const q of [...warmup.exact, ...warmup.typo, ...warmup.prefix]) await search(context, q.query);

  options.log?.(`running ${options.queries} queries of each kind …`);
  const sets = makeQuerySets(indexed, options.queries, options.seed);
  const policies: Record<string, number> = {};
  for (const c of distinct) policies[c.policy] = (policies[c.policy] ?? 0) + 1;
  const exact = await measure(context, sets.exact);
  const typo = await measure(context, sets.typo);
  const prefix = await measure(context, sets.prefix);
  const ambiguous = ambiguousQueries(indexed, sets.prefix);
  const clear = prefix.hitFlags.filter((_, i) => !ambiguous[i]);
  return {
    valueIndex: {
      valuesPerSec: Math.round(values / (build.ms / 1000)),
      values,
      extractMs: Math.round(extract.ms),
      buildMs: Math.round(build.ms),
      valuesPerCpuSec: Math.round(values / (build.cpuMs / 1000)),
      extractCpuMs: Math.round(extract.cpuMs),
      buildCpuMs: Math.round(build.cpuMs),
      endToEndValuesPerSec: Math.round(values / ((extract.ms + build.ms) / 1000)),
      introspectMs: Math.round(introspectMs),
      columns: distinct.length,
      policies,
    },
    searchValue: {
      exact: exact.result,
      typo: typo.result,
      prefix: {
        ...prefix.result,
        ambiguous: ratio3(ambiguous.filter(Boolean).length, ambiguous.length),
        unambiguousHitAt5: ratio3(clear.filter(Boolean).length, clear.length),
      },
      k: K,
      warmupQueries: warmup.exact.length + warmup.typo.length + warmup.prefix.length,
    },
  };
}

/** Wall and CPU time of one step. */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = now();
  const result = await work();
  const ms = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { result, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function search(context: SearchValueContext, query: string): Promise<ValueSearchResult | null> {
  const outcome = await callTool('search_value', { query, k: K }, context);
  return outcome.ok ? (outcome.output as ValueSearchResult) : null;
}

/** The kind's numbers, and per query whether the target was in the top 5. */
async function measure(
  context: SearchValueContext,
  queries: ValueQuery[],
): Promise<{ result: QueryKindResult; hitFlags: boolean[] }> {
  const times: number[] = [];
  const hitFlags: boolean[] = [];
  let at1 = 0;
  let at5 = 0;
  let failures = 0;
  for (const { query, target } of queries) {
    const t0 = now();
    const result = await search(context, query);
    times.push(now() - t0);
    const rank = result
      ? result.hits.findIndex((h) => h.value === target.value && h.table === target.table && h.column === target.column)
      : -1;
    if (!result) failures++;
    if (rank === 0) at1++;
    if (rank >= 0 && rank < 5) at5++;
    hitFlags.push(rank >= 0 && rank < 5);
  }
  const result: QueryKindResult = {
    queries: queries.length,
    p50: ms3(percentile(times, 0.5)),
    p95: ms3(percentile(times, 0.95)),
    max: ms3(percentile(times, 1)),
    hitAt1: ratio3(at1, queries.length),
    hitAt5: ratio3(at5, queries.length),
    failures,
  };
  return { result, hitFlags };
}

/** Per query: does its normalised text start more than 5 indexed values? */
function ambiguousQueries(columns: readonly DistinctColumnValues[], queries: ValueQuery[]): boolean[] {
  const sorted = columns.flatMap((c) => c.values.map(normalizeValue)).sort();
  return queries.map(({ query }) => {
    const key = normalizeValue(query);
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < key) lo = mid + 1;
      else hi = mid;
    }
    return lo + 5 < sorted.length && sorted[lo + 5].startsWith(key);
  });
}
