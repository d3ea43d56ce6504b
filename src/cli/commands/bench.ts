// `dowser bench`: issue 3's performance report on generated data (value index, SearchValue,
// join paths, introspection, prompt size), printed with the targets and optionally written as
// JSON. Exit code 0 whenever the bench ran, targets met or not: the numbers are the report.

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { z } from 'zod';
import { benchFile, formatFileBench } from '../bench/file-bench';
import { formatBenchReport } from '../bench/report';
import type { QueryFile } from '../bench/shop-queries';
import { openDatabase } from '../open-database';
import { DEFAULT_BENCH_OPTIONS, runBench } from '../bench/run-bench';
import { EXIT_OK, parseCommandArgs, parsePositiveInt, UsageError, type CliCommand, type CliIo } from '../command';

const QUICK_ROWS = 100_000;

const usage = `Usage: dowser bench --db <file.sqlite> [--queries <queries.json>] [--per-kind N] [--out <report.json>]
       dowser bench [--out <bench.json>] [--rows N] [--quick] [--queries N] [--seed N] [--no-cache]

With --db: measures that file as the app uses it. Opens it as the CLI does, reads its text
columns once plainly (sqliteReadMs, the baseline), builds the toolbox with the engine's
buildTools (buildMs, with the ratio to the plain read), then times search_value on each query
of the queries file (the first call of each query is a warm-up). queries.json:
  {"<kind>": [{"query": "...", "table"?: "...", "column"?: "...", "expect": "<stored value>"}]}
with any kind names; a hit is \`expect\` among the top 5 values (in table/column when given, which
also scope the search). The report has buildMs, sqliteReadMs, peakRssMB, valuesIndexed and per
kind n, p50Ms, p95Ms, hitAt5. scripts/make-bench-db.ts generates realistic files and queries.

Without --db:

Generates deterministic data and measures, in this process:
  - a database of ${DEFAULT_BENCH_OPTIONS.rows.toLocaleString('en-US')} rows (people, products, companies, places) with
    over 200k distinct text values: distinct-value extraction, value index build rate, and
    search_value latency and hit rates for exact, one-typo and 60%-prefix queries;
  - a ${DEFAULT_BENCH_OPTIONS.wideTables}-table x ${DEFAULT_BENCH_OPTIONS.wideColumns}-column schema with foreign keys: introspection time, join-path
    query latency, and o200k tokens of the table summary against the full DDL.
Prints each metric with its target (PASS/MISS). The value database is cached in the OS temp
folder, so later runs skip generating it.

Options:
  --db <file>     the SQLite file to measure
  --queries <f>   with --db: the queries file (without it, only the build is measured)
  --per-kind N    with --db: only the first N queries of each kind
  --out <file>    also write the report as JSON (folders are created)
  --rows N        rows of the value database (default ${DEFAULT_BENCH_OPTIONS.rows})
  --quick         ${QUICK_ROWS.toLocaleString('en-US')} rows, for a fast smoke run
  --queries N     search_value queries of each kind (default ${DEFAULT_BENCH_OPTIONS.queries})
  --seed N        seed of the generated data and queries (default ${DEFAULT_BENCH_OPTIONS.seed})
  --no-cache      generate the value database in memory, neither reading nor writing the cache
  -h, --help      show this help
`;

const options = {
  out: { type: 'string' },
  rows: { type: 'string' },
  quick: { type: 'boolean' },
  queries: { type: 'string' },
  db: { type: 'string' },
  'per-kind': { type: 'string' },
  seed: { type: 'string' },
  'no-cache': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values.db) return runFileBench(values.db, values, io);
  if (values.quick && values.rows !== undefined)
    throw new UsageError('--quick and --rows both set the number of rows: give one');
  const rows = values.quick ? QUICK_ROWS : parsePositiveInt(values.rows, '--rows', DEFAULT_BENCH_OPTIONS.rows);
  const report = await runBench({
    ...DEFAULT_BENCH_OPTIONS,
    rows,
    queries: parsePositiveInt(values.queries, '--queries', DEFAULT_BENCH_OPTIONS.queries),
    seed: parsePositiveInt(values.seed, '--seed', DEFAULT_BENCH_OPTIONS.seed),
    cacheDir: values['no-cache'] ? null : os.tmpdir(),
    log: (m) => io.stderr.write(`[bench] ${m}\n`),
  });
  io.stdout.write(formatBenchReport(report));
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(report, null, 2) + '\n');
    io.stdout.write(`report written to ${values.out}\n`);
  }
  return EXIT_OK;
}

const queryFileSchema = z.record(
  z.string(),
  z.array(
    z.strictObject({
      query: z.string().min(1),
      table: z.string().min(1).optional(),
      column: z.string().min(1).optional(),
      expect: z.string(),
    }),
  ),
);

function readQueries(path: string, io: CliIo): QueryFile {
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder().decode(io.readFile(path)));
  } catch (e) {
    throw new UsageError(`cannot read the queries file "${path}": ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = queryFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `the queries file "${path}" should be {"<kind>": [{"query", "table"?, "column"?, "expect"}]}: ${issue.path.join('.')}: ${issue.message}`,
    );
  }
  return parsed.data;
}

async function runFileBench(
  file: string,
  values: { queries?: string; 'per-kind'?: string; out?: string; rows?: string; quick?: boolean; seed?: string },
  io: CliIo,
): Promise<number> {
  if (values.rows || values.quick || values.seed)
    throw new UsageError('--rows, --quick and --seed generate data: they do not go with --db');
  const queries = values.queries ? readQueries(values.queries, io) : {};
  const perKind = values['per-kind'] === undefined ? undefined : parsePositiveInt(values['per-kind'], '--per-kind', 1);
  const report = await benchFile({
    file,
    queries,
    perKind,
    open: async () => {
      const opened = await openDatabase(io, file);
      return { engine: opened.engine, id: opened.id, sizeBytes: opened.report.sizeBytes };
    },
    log: (m) => io.stderr.write(`[bench] ${m}\n`),
  });
  io.stdout.write(formatFileBench(report));
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(report, null, 2) + '\n');
    io.stdout.write(`report written to ${values.out}\n`);
  }
  return EXIT_OK;
}

export const benchCommand: CliCommand = {
  name: 'bench',
  summary: 'measure the value index, search, join paths and prompt size on generated data',
  usage,
  run,
};
