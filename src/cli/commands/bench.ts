// `dowser bench`: issue 3's performance report on generated data (value index, SearchValue,
// join paths, introspection, prompt size), printed with the targets and optionally written as
// JSON. Exit code 0 whenever the bench ran, targets met or not: the numbers are the report.

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { z } from 'zod';
import { benchFile, formatFileBench } from '../bench/file-bench';
import { formatBenchReport } from '../bench/report';
import type { QueryFile } from '../bench/shop-queries';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { nodeTokenizerWorkers } from '../../worker/node/spawn';
import { DEFAULT_BENCH_OPTIONS, runBench } from '../bench/run-bench';
import { EXIT_OK, parseCommandArgs, parsePositiveInt, UsageError, type CliCommand, type CliIo } from '../command';
import { readChoice } from '../open-database';
import { parseCellBudget } from '../../core/retrieval/distinct-values';

const QUICK_MB = 10;

const usage = `Usage: dowser bench --db <file.sqlite> [--queries <queries.json>] [--per-kind N] [--out <report.json>]
       dowser bench [--mb N | --quick] [--order insertion|shuffled] [--queries N] [--seed N] [--no-cache] [--out <bench.json>]

With --db: measures that file as the app uses it. Opens it as the CLI does, reads its text
columns once plainly (sqliteReadMs, the baseline, best of a read before and one after the
build), builds the toolbox with the engine's buildTools (buildMs, and the ratio of the two),
then times search_value on each query of the queries file (the first call of each query is a
warm-up). queries.json:
  {"<kind>": [{"query": "...", "table"?: "...", "column"?: "...", "expect": "<stored value>"}]}
with any kind names; a hit is \`expect\` among the top 5 values (in table/column when given,
which also scope the search). The report has buildMs, sqliteReadMs, peakRssMB, valuesIndexed,
indexMemoryMB and per kind n, p50Ms, p95Ms, hitAt5.

Without --db: generates a realistic shop database (customers, products, orders with free-text
notes, support tickets; unique codes, skewed categories, names, values that appear only late)
of about N MB and its queries (exact, 1- and 2-edit typos anywhere in a word, prefix, unique
code, a rare word inside free text, a value present only late), measures it as above, times
introspection, join paths and prompt size on a ${DEFAULT_BENCH_OPTIONS.wideTables}-table x ${DEFAULT_BENCH_OPTIONS.wideColumns}-column schema, and prints
each target with PASS/MISS. The database is cached in the OS temp folder. Peak memory of a
run that generated the database includes generating it: run again to measure the file alone.
scripts/make-bench-db.ts writes such files and queries for --db.

Options:
  --db <file>       the SQLite file to measure
  --queries <f|N>   with --db: the queries file (without it, only the build is measured);
                    without --db: queries of each kind (default ${DEFAULT_BENCH_OPTIONS.queries})
  --per-kind N      with --db: only the first N queries of each kind
  --mb N            size of the generated database (default ${DEFAULT_BENCH_OPTIONS.mb})
  --quick           ${QUICK_MB} MB, for a fast smoke run
  --order o         insertion (rowids follow time) or shuffled (default ${DEFAULT_BENCH_OPTIONS.order})
  --seed N          seed of the generated data and queries (default ${DEFAULT_BENCH_OPTIONS.seed})
  --no-cache        generate in memory, neither reading nor writing the cache
  --out <file>      also write the report as JSON (folders are created)
  -h, --help        show this help
`;

const options = {
  out: { type: 'string' },
  db: { type: 'string' },
  queries: { type: 'string' },
  'per-kind': { type: 'string' },
  mb: { type: 'string' },
  quick: { type: 'boolean' },
  order: { type: 'string' },
  seed: { type: 'string' },
  'no-cache': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

function writeReport(path: string | undefined, report: unknown, io: CliIo): void {
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
  io.stdout.write(`report written to ${path}\n`);
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values.db) return runFileBench(values.db, values, io);
  if (values['per-kind']) throw new UsageError('--per-kind goes with --db');
  if (values.quick && values.mb !== undefined) throw new UsageError('--quick and --mb both set the size: give one');
  const mb = values.quick ? QUICK_MB : Number(values.mb ?? DEFAULT_BENCH_OPTIONS.mb);
  if (!(mb > 0)) throw new UsageError(`--mb needs a size above 0, not "${values.mb}"`);
  const order = values.order ?? DEFAULT_BENCH_OPTIONS.order;
  if (order !== 'insertion' && order !== 'shuffled')
    throw new UsageError(`--order must be insertion or shuffled, not "${order}"`);
  const report = await runBench({
    ...DEFAULT_BENCH_OPTIONS,
    mb,
    order,
    queries: parsePositiveInt(values.queries, '--queries', DEFAULT_BENCH_OPTIONS.queries),
    seed: parsePositiveInt(values.seed, '--seed', DEFAULT_BENCH_OPTIONS.seed),
    cacheDir: values['no-cache'] ? null : os.tmpdir(),
    log: (m) => io.stderr.write(`[bench] ${m}\n`),
  });
  io.stdout.write(formatBenchReport(report));
  writeReport(values.out, report, io);
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

async function runFileBench(file: string, values: Values, io: CliIo): Promise<number> {
  if (values.mb || values.quick || values.seed || values.order || values['no-cache'])
    throw new UsageError('--mb, --quick, --order, --seed and --no-cache generate data: they do not go with --db');
  const queries = values.queries ? readQueries(values.queries, io) : {};
  const perKind = values['per-kind'] === undefined ? undefined : parsePositiveInt(values['per-kind'], '--per-kind', 1);
  const report = await benchFile({
    file,
    queries,
    perKind,
    // In process, not in the CLI's worker: the bench measures the engine itself (time and memory).
    open: async () => {
      const { budget, problem } = parseCellBudget(process.env.DOWSER_INDEX_CELLS);
      if (problem) throw new UsageError(problem);
      const engine = await createNodeEngine({ tokenizerWorkers: nodeTokenizerWorkers(), valueCellBudget: budget });
      const read = readChoice(process.env.DOWSER_READ);
      const report = await engine.open({ id: 'bench', name: basename(file), bytes: { path: resolve(file) }, read });
      io.stderr.write(`[bench] read from ${report.readFrom ?? 'memory'}\n`);
      return { engine, id: 'bench', sizeBytes: report.sizeBytes };
    },
    log: (m) => io.stderr.write(`[bench] ${m}\n`),
  });
  io.stdout.write(formatFileBench(report));
  writeReport(values.out, report, io);
  return EXIT_OK;
}

export const benchCommand: CliCommand = {
  name: 'bench',
  summary: 'measure the toolbox build and search_value on any file (--db) or on generated data',
  usage,
  run,
};
