// `dowser eval-tools`: measures the retrieval tools on Spider- or BIRD-format questions (issue 3).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EvalToolsReport } from '../../core/eval/types';
import { EXIT_OK, parseCommandArgs, parsePositiveInt, UsageError, type CliCommand, type CliIo } from '../command';
import { runEvalTools, type EvalProgress } from '../eval/run-eval-tools';
import { TOOL_SETS, toolsFactoryFor } from '../eval/tool-sets';

const toolList = [...TOOL_SETS.values()].map((t) => `      ${t.name.padEnd(9)} ${t.summary}`).join('\n');

const usage = `Usage: dowser eval-tools --dataset spider|bird --data <dir> [--questions <file>]
         [--databases <dir>] [--descriptions <dir>] [--tools <name>] [--model <dir>]
         [--limit N] [--no-evidence] [--out <report.json>]

Measures the retrieval tools against gold SQL: column search recall, value search, join paths
and table linking (RES). Gold tables, columns, literals and joins come from parsing each gold
query against its database (SQLite's EXPLAIN when the parser cannot read it). Questions whose
database file is missing are skipped and counted.

Options:
  --dataset spider|bird   question format and folder layout (default spider)
  --data <dir>            Spider: dev.json + database/<db>/<db>.sqlite;
                          BIRD: dev.json or mini_dev_sqlite.json + dev_databases/<db>/<db>.sqlite
  --questions <file>      question file instead of the default (e.g. a Spider-Syn file)
  --databases <dir>       BIRD: folder of <db>/<db>.sqlite (default dev_databases/ or databases/)
  --descriptions <dir>    BIRD: folder of <db>/database_description/*.csv, if not next to the databases
  --tools <name>          which tools to measure (default product):
${toolList}
  --model <dir>           local embedding model folder, for hybrid tools
  --limit N               only the first N questions of the file
  --no-evidence           BIRD: query with the question alone, without its evidence
  --out <file>            write the full JSON report there (folders are created)
  -h, --help              show this help
`;

const options = {
  dataset: { type: 'string' },
  data: { type: 'string' },
  questions: { type: 'string' },
  databases: { type: 'string' },
  descriptions: { type: 'string' },
  tools: { type: 'string' },
  model: { type: 'string' },
  limit: { type: 'string' },
  'no-evidence': { type: 'boolean' },
  out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const fmt = (v: number | null): string => (v === null ? '-' : v.toFixed(3));

/** The headline numbers as an aligned text table. */
export function formatEvalSummary(r: EvalToolsReport): string {
  const rows: Array<[string, number | null, number]> = [
    ['searchColumn recall@5', r.searchColumn.recallAt5, r.searchColumn.n],
    ['searchColumn recall@10', r.searchColumn.recallAt10, r.searchColumn.n],
    ['searchColumn all@10', r.searchColumn.allAt10, r.searchColumn.n],
    ['searchValue recall@5 (question)', r.searchValue.recallAt5, r.searchValue.n],
    ['searchValue hit@5 (literal)', r.searchValue.literalHitAt5, r.searchValue.n],
    ['joinPath agreement', r.joinPath.agreement, r.joinPath.n],
    ['tableLinking RES (top-10 columns)', r.tableLinking.res, r.tableLinking.n],
  ];
  const w = Math.max(...rows.map((x) => x[0].length));
  const skipped = r.skipped.databases.map((d) => `${d.db}: ${d.reason}`).join('; ');
  const lines = [
    `eval-tools: ${r.dataset} (${r.questionsFile}), tools ${r.tools} (${r.mode})`,
    `${r.questions} questions${r.skipped.questions ? `, ${r.skipped.questions} skipped (${skipped})` : ''}, parse failures ${r.parseFailures}` +
      ` (gold via parser ${r.goldSources.parser}, after rewrite ${r.goldSources.parserRewritten}, EXPLAIN only ${r.goldSources.explain})`,
    '',
    `${'metric'.padEnd(w)}  value      n`,
    ...rows.map(([name, v, n]) => `${name.padEnd(w)}  ${fmt(v).padStart(5)}  ${String(n).padStart(5)}`),
    '',
    `literals excluded: ${r.excludedLiterals.notTextColumn} not a text column, ${r.excludedLiterals.notInColumn} not in their column (any case)`,
    `searchColumn lists shorter than 10 (filled in schema order before scoring): ${r.shortColumnLists}`,
    ...(r.toolErrors ? [`tool errors: ${r.toolErrors} (counted as empty answers)`] : []),
    `elapsed ${(r.elapsedMs / 1000).toFixed(1)} s`,
  ];
  return lines.join('\n') + '\n';
}

function progressLine(p: EvalProgress): string | null {
  const at = `[${p.dbIndex}/${p.dbCount}] ${p.db}`;
  if (p.phase === 'skipped') return `${at}: skipped (${p.questions} questions)\n`;
  if (p.phase === 'done') return `${at}: ${p.questions} questions, ${(p.elapsedMs / 1000).toFixed(1)} s\n`;
  return null;
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const dataset = values.dataset ?? 'spider';
  if (dataset !== 'spider' && dataset !== 'bird')
    throw new UsageError(`--dataset must be spider or bird, not "${dataset}"`);
  if (!values.data) throw new UsageError('--data <dir> is required');
  if (dataset === 'spider' && (values.databases || values.descriptions))
    throw new UsageError('--databases and --descriptions are for --dataset bird');
  const limit = values.limit === undefined ? undefined : parsePositiveInt(values.limit, '--limit', 0);
  const toolsName = values.tools ?? 'product';
  const factory = toolsFactoryFor(toolsName, { model: values.model, warn: (m) => io.stderr.write(`note: ${m}\n`) });

  const report = await runEvalTools(
    {
      dataset,
      data: values.data,
      questions: values.questions,
      databases: values.databases,
      descriptions: values.descriptions,
      limit,
      useEvidence: !values['no-evidence'],
      toolsName,
    },
    factory,
    (p) => {
      const line = progressLine(p);
      if (line) io.stderr.write(line);
    },
  );
  io.stdout.write(formatEvalSummary(report));
  if (values.out) {
    mkdirSync(dirname(values.out), { recursive: true });
    writeFileSync(values.out, JSON.stringify(report, null, 2) + '\n');
    io.stdout.write(`report written to ${values.out}\n`);
  }
  return EXIT_OK;
}

export const evalToolsCommand: CliCommand = {
  name: 'eval-tools',
  summary: 'measure the retrieval tools on Spider/BIRD questions',
  usage,
  run,
};
