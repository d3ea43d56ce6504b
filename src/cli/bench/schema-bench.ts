// Schema work on the wide database: introspection through the engine (what opening a file costs
// before the explorer and the tools can start), join-path queries on the table-level graph, and
// the prompt size of the table summary against the full DDL in o200k tokens (GPT-4o's encoding,
// a fair stand-in for current models' tokenizers).

import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { DbEngine } from '../../core/engine';
import { fullDdl, tableSummary } from '../../core/prompt/schema-text';
import { buildJoinGraph, shortestJoinPaths, type JoinGraph } from '../../core/schema/join-graph';
import type { Schema } from '../../core/types';
import { median, ms3, now, percentile, seeded } from './random';

export interface SchemaBench {
  introspect: { ms: number; runs: number[] };
  joinPath: {
    p50: number;
    p95: number;
    max: number;
    queries: number;
    warmupQueries: number;
    graphBuildMs: number;
    pathsFound: number;
    meanHops: number;
  };
  promptTokens: {
    tableSummary: number;
    fullDDL: number;
    ratio: number;
    tableSummaryChars: number;
    fullDDLChars: number;
  };
}

export interface SchemaBenchOptions {
  pathQueries: number;
  seed: number;
  introspectRuns?: number;
}

export async function benchSchema(engine: DbEngine, id: string, options: SchemaBenchOptions): Promise<SchemaBench> {
  const runs: number[] = [];
  let schema: Schema | null = null;
  for (let i = 0; i < (options.introspectRuns ?? 3); i++) {
    const t0 = now();
    schema = await engine.introspect(id);
    runs.push(now() - t0);
  }
  const t0 = now();
  const graph = buildJoinGraph(schema!);
  const graphBuildMs = now() - t0;

  const warmupQueries = Math.min(200, options.pathQueries);
  timePaths(graph, pathQueries(schema!, warmupQueries, options.seed + 1000));
  const { times, found, hops } = timePaths(graph, pathQueries(schema!, options.pathQueries, options.seed));

  const summary = tableSummary(schema!);
  const ddl = fullDdl(schema!);
  const summaryTokens = countTokens(summary);
  const ddlTokens = countTokens(ddl);
  return {
    introspect: { ms: Math.round(median(runs)), runs: runs.map(Math.round) },
    joinPath: {
      p50: ms3(percentile(times, 0.5)),
      p95: ms3(percentile(times, 0.95)),
      max: ms3(percentile(times, 1)),
      queries: times.length,
      warmupQueries,
      graphBuildMs: ms3(graphBuildMs),
      pathsFound: found,
      meanHops: found ? Math.round((hops / found) * 100) / 100 : 0,
    },
    promptTokens: {
      tableSummary: summaryTokens,
      fullDDL: ddlTokens,
      ratio: Math.round((summaryTokens / Math.max(1, ddlTokens)) * 1000) / 1000,
      tableSummaryChars: summary.length,
      fullDDLChars: ddl.length,
    },
  };
}

/**
 * Random pairs of distinct tables; one in four names a column at each end ("t012.t003_id"), as
 * the agent does when it knows which key it wants.
 */
function pathQueries(schema: Schema, n: number, seed: number): Array<[string, string]> {
  const rnd = seeded(seed);
  const tables = schema.tables.filter((t) => t.kind === 'table');
  if (tables.length < 2) return [];
  const endpoint = (i: number) => {
    const t = tables[i];
    return rnd() < 0.25 && t.columns.length
      ? `${t.name}.${t.columns[Math.floor(rnd() * t.columns.length)].name}`
      : t.name;
  };
  const out: Array<[string, string]> = [];
  for (let k = 0; k < n; k++) {
    const a = Math.floor(rnd() * tables.length);
    const b = (a + 1 + Math.floor(rnd() * (tables.length - 1))) % tables.length;
    out.push([endpoint(a), endpoint(b)]);
  }
  return out;
}

function timePaths(
  graph: JoinGraph,
  queries: Array<[string, string]>,
): { times: number[]; found: number; hops: number } {
  const times: number[] = [];
  let found = 0;
  let hops = 0;
  for (const [start, end] of queries) {
    const t0 = now();
    const result = shortestJoinPaths(graph, start, end);
    times.push(now() - t0);
    if (result.ok && result.paths.length > 0) {
      found++;
      hops += result.paths[0].edges.length;
    }
  }
  return { times, found, hops };
}
