// Runs the whole benchmark: generate (or reuse) the value database and the wide schema, open
// each in the app's sql.js engine, measure, and assemble the report. Sizes are parameters so the
// unit test runs the same code on a tiny database.

import os from 'node:os';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { checkTargets, type BenchReport } from './report';
import { benchSchema } from './schema-bench';
import { now } from './random';
import { ensureValueDb } from './value-db';
import { benchValueSearch } from './value-search';
import { buildWideDb } from './wide-db';

export interface BenchOptions {
  /** Rows of the value database (issue 3: at least 1M). */
  rows: number;
  /** Queries of each SearchValue kind. */
  queries: number;
  pathQueries: number;
  wideTables: number;
  wideColumns: number;
  wideRowsPerTable: number;
  seed: number;
  /** Where the value database is cached; null = build in memory every run. */
  cacheDir: string | null;
  log?(message: string): void;
}

export const DEFAULT_BENCH_OPTIONS: Omit<BenchOptions, 'cacheDir' | 'log'> = {
  rows: 1_000_000,
  queries: 200,
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
  const valueDb = await ensureValueDb({ rows: options.rows, seed: options.seed, cacheDir: options.cacheDir, log });
  const engine = await createNodeEngine();

  log?.(`opening the value database (${(valueDb.sizeBytes / 2 ** 20).toFixed(1)} MiB) …`);
  await engine.open({ id: 'values', name: 'bench-values.sqlite', bytes: valueDb.bytes });
  let values;
  try {
    values = await benchValueSearch(engine, 'values', { queries: options.queries, seed: options.seed, log });
  } finally {
    await engine.close('values');
  }

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
    valueIndex: values.valueIndex,
    searchValue: values.searchValue,
    joinPath: schema.joinPath,
    introspect: { ...schema.introspect, tables: wide.tables, columns: wide.columns, foreignKeys: wide.foreignKeys },
    promptTokens: schema.promptTokens,
    data: {
      rows: valueDb.rows,
      tables: valueDb.tables,
      distinctTextValues: valueDb.distinctTextValues,
      sizeBytes: valueDb.sizeBytes,
      buildMs: valueDb.buildMs,
      seed: options.seed,
      reused: valueDb.reused,
      cachePath: valueDb.path,
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
