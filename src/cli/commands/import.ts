// `dowser import <files…> --out <file.sqlite>`: CSV, TSV, JSON and JSON Lines files become one
// SQLite database, a table each, as the page and `--db x.csv` import them (issue 26); the
// database is written to a new file, so later questions open it without importing again.

import { existsSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { TABLE_FILE, type ImportType } from '../../core/import/table-file';
import { visible } from '../../core/format/visible';
import { EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { cliEngine, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE } from '../open-database';
import {
  headerFor,
  importLines,
  parseTableFileFlags,
  previewFile,
  TABLE_FILE_FLAGS,
  tableFileUsage,
  terminalOf,
  type TableFileChoice,
} from '../table-file-flags';

const usage = `Usage: dowser import <file>… --out <file.sqlite> [--type <column>=<TYPE>]… [--header yes|no|auto]
                     [--encoding <e>] [--force] [--timeout <s>]

Imports CSV, TSV, JSON and JSON Lines files into one new SQLite database, one table per file
(types inferred from the values, every row checked; rows that do not fit are reported with
their numbers), and writes it to --out. The input files are only read. How each file's first
row and text were read, its columns and their types are printed.

Options:
  --out <file>     the SQLite file to write (required; an existing file needs --force)
  --type <c>=<T>   import column <c> (of every file that has it, or <table>.<c>) as TEXT,
                   INTEGER or REAL instead of the inferred type; repeatable
${tableFileUsage()}
  --force          replace --out if it exists (never one of the files read)
${TIMEOUT_USAGE}
  -h, --help       show this help
`;

const options = {
  out: { type: 'string' },
  type: { type: 'string', multiple: true },
  force: { type: 'boolean' },
  ...TABLE_FILE_FLAGS,
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
  const same = positionals.find((p) => sameFile(resolve(p), out));
  if (same) throw new UsageError(`--out "${visible(values.out)}" is the same file as the input "${visible(same)}"`);
  if (existsSync(out) && !values.force)
    throw new UsageError(`"${visible(values.out)}" exists: add --force to replace it`);
  const choice = parseTableFileFlags(values);
  const engine = cliEngine(parseTimeout(values.timeout));
  const id = 'import';
  const chosen = parseTypeFlags(values.type ?? []);
  const used = new Set<string>();
  const terminal = terminalOf(io);
  const tables = [];
  for (const p of positionals) {
    const header = await headerFor(resolve(p), choice, terminal);
    const types = chosen.size ? typesOf(p, { ...choice, header }, chosen, used) : undefined;
    tables.push({
      name: basename(p),
      bytes: { path: resolve(p) },
      header,
      encoding: choice.encoding,
      ...(types ? { types } : {}),
    });
  }
  const unused = [...chosen.keys()].filter((k) => !used.has(k));
  if (unused.length) throw new UsageError(`--type names no column of these files: ${unused.map(visible).join(', ')}`);
  const report = await engine.open({ id, name: basename(out), bytes: tables[0].bytes, tables });
  try {
    for (const line of importLines(report)) io.stderr.write(line + '\n');
    writeBeside(out, await engine.exportImported(id));
    io.stderr.write(`wrote ${visible(values.out)}\n`);
    return EXIT_OK;
  } finally {
    await engine.close(id).catch(() => undefined);
  }
}

/**
 * Whether two paths name one file: the same real path, or the same device and inode (a hard
 * link, or a symlink, to it). A path that does not exist is no file read.
 */
function sameFile(a: string, b: string): boolean {
  if (!existsSync(a) || !existsSync(b)) return false;
  if (realpathSync(a) === realpathSync(b)) return true;
  const sa = statSync(a, { bigint: true });
  const sb = statSync(b, { bigint: true });
  return sa.ino !== 0n && sa.dev === sb.dev && sa.ino === sb.ino;
}

/**
 * `bytes` written to a temporary file beside `out`'s real file, then renamed over it: a failure
 * part way leaves the old file whole, and a symlink at `out` keeps pointing where it did.
 */
function writeBeside(out: string, bytes: Uint8Array): void {
  const target = existsSync(out) ? realpathSync(out) : out;
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(temp, bytes, { flag: 'wx' });
    renameSync(temp, target);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // never written
    }
    throw e;
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
 * The types `chosen` gives the columns of `path` (from a preview of its first bytes, read as the
 * import will read it), or undefined; the keys it used are added to `used`.
 */
function typesOf(
  path: string,
  choice: TableFileChoice,
  chosen: Map<string, ImportType>,
  used: Set<string>,
): Array<ImportType | null> | undefined {
  const preview = previewFile(path, choice);
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
