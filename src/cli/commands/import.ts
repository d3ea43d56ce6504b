// `dowser import <files…> --out <file.sqlite>`: CSV, TSV, JSON and JSON Lines files become one
// SQLite database, a table each, as the page and `--db x.csv` import them (issue 26); the
// database is written to a new file, so later questions open it without importing again.

import { existsSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { TABLE_FILE } from '../../core/import/table-file';
import { visible } from '../../core/format/visible';
import { EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { cliEngine, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE } from '../open-database';

const usage = `Usage: dowser import <file>… --out <file.sqlite> [--force] [--timeout <s>]

Imports CSV, TSV, JSON and JSON Lines files into one new SQLite database, one table per file
(types inferred from every value; rows that do not fit are reported with their numbers), and
writes it to --out. The input files are only read.

Options:
  --out <file>     the SQLite file to write (required; an existing file needs --force)
  --force          replace --out if it exists
${TIMEOUT_USAGE}
  -h, --help       show this help
`;

const options = {
  out: { type: 'string' },
  force: { type: 'boolean' },
  ...TIMEOUT_FLAG,
  help: { type: 'boolean', short: 'h' },
} as const;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('name at least one CSV, TSV, JSON or JSON Lines file');
  const wrong = positionals.find((p) => !TABLE_FILE.test(p));
  if (wrong)
    throw new UsageError(`"${visible(wrong)}" is not a table file (.csv, .tsv, .tab, .txt, .json, .jsonl, .ndjson)`);
  if (!values.out) throw new UsageError('--out <file.sqlite> is required');
  const out = resolve(values.out);
  if (positionals.some((p) => resolve(p) === out)) throw new UsageError('--out must not be one of the files read');
  if (existsSync(out) && !values.force)
    throw new UsageError(`"${visible(values.out)}" exists: add --force to replace it`);
  const engine = cliEngine(parseTimeout(values.timeout));
  const id = 'import';
  const tables = positionals.map((p) => ({ name: basename(p), bytes: { path: resolve(p) } }));
  const report = await engine.open({ id, name: basename(out), bytes: tables[0].bytes, tables });
  try {
    for (const issue of report.issues)
      io.stderr.write(`${issue.level === 'warning' ? 'warning' : 'note'}: ${visible(issue.message)}\n`);
    writeFileSync(out, await engine.exportImported(id));
    io.stderr.write(`wrote ${visible(values.out)}\n`);
    return EXIT_OK;
  } finally {
    await engine.close(id).catch(() => undefined);
  }
}

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'import CSV, TSV and JSON files into a new SQLite file',
  usage,
  run,
};
