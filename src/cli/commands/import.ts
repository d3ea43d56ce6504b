// `dowser import <files…> --out <file.sqlite>`: CSV, TSV, JSON and JSON Lines files become one
// SQLite database, a table each, as the page and `--db x.csv` import them (issue 26); the
// database is written to a new file, so later questions open it without importing again.

import { closeSync, existsSync, openSync, readSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { TABLE_FILE, type ImportType } from '../../core/import/table-file';
import { PREVIEW_BYTES, previewTableFile } from '../../core/import/table-preview';
import { visible } from '../../core/format/visible';
import { EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { cliEngine, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE } from '../open-database';

const usage = `Usage: dowser import <file>… --out <file.sqlite> [--type <column>=<TYPE>]… [--force] [--timeout <s>]

Imports CSV, TSV, JSON and JSON Lines files into one new SQLite database, one table per file
(types inferred from the values, every row checked; rows that do not fit are reported with
their numbers), and writes it to --out. The input files are only read. Each file's columns and
their types are printed.

Options:
  --out <file>     the SQLite file to write (required; an existing file needs --force)
  --type <c>=<T>   import column <c> (of every file that has it, or <table>.<c>) as TEXT,
                   INTEGER or REAL instead of the inferred type; repeatable
  --force          replace --out if it exists
${TIMEOUT_USAGE}
  -h, --help       show this help
`;

const options = {
  out: { type: 'string' },
  type: { type: 'string', multiple: true },
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
  const chosen = parseTypeFlags(values.type ?? []);
  const used = new Set<string>();
  const tables = positionals.map((p) => {
    const types = chosen.size ? typesOf(p, chosen, used) : undefined;
    return { name: basename(p), bytes: { path: resolve(p) }, ...(types ? { types } : {}) };
  });
  const unused = [...chosen.keys()].filter((k) => !used.has(k));
  if (unused.length) throw new UsageError(`--type names no column of these files: ${unused.map(visible).join(', ')}`);
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

/** `--type amount=REAL` / `--type sales.zip=TEXT`, keyed by the column (or table.column) in lower case. */
function parseTypeFlags(flags: string[]): Map<string, ImportType> {
  const out = new Map<string, ImportType>();
  for (const f of flags) {
    const m = /^(.+)=(TEXT|INTEGER|REAL)$/i.exec(f);
    if (!m) throw new UsageError(`--type needs <column>=TEXT, INTEGER or REAL, not "${visible(f)}"`);
    out.set(m[1].trim().toLowerCase(), m[2].toUpperCase() as ImportType);
  }
  return out;
}

/**
 * The types `chosen` gives the columns of `path` (from a preview of its first bytes), or
 * undefined; the keys it used are added to `used`.
 */
function typesOf(
  path: string,
  chosen: Map<string, ImportType>,
  used: Set<string>,
): Array<ImportType | null> | undefined {
  const fd = openSync(path, 'r');
  let head: Uint8Array;
  let whole: boolean;
  try {
    const buffer = new Uint8Array(PREVIEW_BYTES);
    const n = readSync(fd, buffer, 0, PREVIEW_BYTES, 0);
    head = buffer.subarray(0, n);
    whole = n < PREVIEW_BYTES;
  } finally {
    closeSync(fd);
  }
  const preview = previewTableFile(basename(path), head, whole);
  const types = preview.columns.map((c) => {
    for (const key of [`${preview.table}.${c.name}`.toLowerCase(), c.name.toLowerCase()]) {
      const t = chosen.get(key);
      if (t) {
        used.add(key);
        return t;
      }
    }
    return null;
  });
  return types.some((t) => t !== null) ? types : undefined;
}

export const importCommand: CliCommand = {
  name: 'import',
  summary: 'import CSV, TSV and JSON files into a new SQLite file',
  usage,
  run,
};
