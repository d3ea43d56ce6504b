// The default `dowser bench`: generates (or reuses) a realistic shop database and measures it
// exactly as `dowser bench --db` would (file-bench.ts), then times schema work on a wide
// generated schema (introspection, join paths, prompt size), and checks the targets. Sizes are
// parameters so the unit test runs the same code on a tiny database.

import os from 'node:os';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { nodeTokenizerWorkers } from '../../worker/node/spawn';
import { benchFile } from './file-bench';
import { now } from './random';
import { checkTargets, type BenchReport } from './report';
import { benchSchema } from './schema-bench';
import type { RowOrder } from './shop-db';
import { ensureShopFile } from './shop-cache';
import { buildWideDb } from './wide-db';

export interface BenchOptions {
  /** Size of the generated shop database in MB. */
  mb: number;
  order: RowOrder;
  /** search_value queries of each kind. */
  queries: number;
  pathQueries: number;
  wideTables: number;
  wideColumns: number;
  wideRowsPerTable: number;
  seed: number;
  /** Where the generated database is cached; null = build in memory every run. */
  cacheDir: string | null;
  log?(message: string): void;
}

export const DEFAULT_BENCH_OPTIONS: Omit<BenchOptions, 'cacheDir' | 'log'> = {
  mb: 100,
  order: 'shuffled',
  queries: 100,
  pathQueries: 1_000,
  wideTables: 200,
  wideColumns: 50,
  wideRowsPerTable: 3,
  seed: 1,
};

export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const started = now();
  const loadAtStart = os.loadavg()[0];
  const { log } = options;
  const shop = await ensureShopFile({
    mb: options.mb,
    order: options.order,
    seed: options.seed,
    queriesPerKind: options.queries,
    cacheDir: options.cacheDir,
    log,
  });
  const engine = await createNodeEngine({ tokenizerWorkers: nodeTokenizerWorkers() });
  const values = await benchFile({
    file: shop.path ?? '(in memory)',
    queries: shop.queries,
    open: async () => {
      const report = await engine.open({ id: 'values', name: 'bench-shop.sqlite', bytes: shop.bytes });
      return { engine, id: 'values', sizeBytes: report.sizeBytes };
    },
    log,
  });
  await engine.close('values');

  log?.(`building the wide schema (${options.wideTables} x ${options.wideColumns}) …`);
  const wide = await buildWideDb({
    tables: options.wideTables,
    columns: options.wideColumns,
    seed: options.seed,
    rowsPerTable: options.wideRowsPerTable,
  });
  await engine.open({ id: 'wide', name: 'bench-wide.sqlite', bytes: wide.bytes });
  let schema;
  try {
    log?.('timing introspection, join paths and prompt size …');
    schema = await benchSchema(engine, 'wide', { pathQueries: options.pathQueries, seed: options.seed });
  } finally {
    await engine.close('wide');
  }

  const cpus = os.cpus();
  const report: Omit<BenchReport, 'targets'> = {
    values,
    joinPath: schema.joinPath,
    introspect: { ...schema.introspect, tables: wide.tables, columns: wide.columns, foreignKeys: wide.foreignKeys },
    promptTokens: schema.promptTokens,
    data: {
      mb: options.mb,
      order: options.order,
      seed: options.seed,
      rows: shop.rows,
      sizeBytes: shop.bytes.byteLength,
      buildMs: shop.buildMs,
      reused: shop.reused,
      cachePath: shop.path,
    },
    wideSchema: {
      tables: wide.tables,
      columnsPerTable: options.wideColumns,
      columns: wide.columns,
      foreignKeys: wide.foreignKeys,
      rowsPerTable: options.wideRowsPerTable,
      buildMs: wide.buildMs,
    },
    machine: {
      node: process.version,
      platform: os.platform(),
      arch: os.arch(),
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cpus: cpus.length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage: { start: Math.round(loadAtStart * 100) / 100, end: Math.round(os.loadavg()[0] * 100) / 100 },
    },
    createdAt: new Date().toISOString(),
    totalMs: Math.round(now() - started),
  };
  return { ...report, targets: checkTargets(report) };
}
