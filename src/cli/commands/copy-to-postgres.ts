// `dowser copy-to-postgres`: a SQLite file, or every database of a Spider folder, copied into
// PostgreSQL with faithful types (src/cli/eval/copy-to-postgres.ts), so `dowser eval` can ask
// the same questions on a server (issue 36). It writes to the server: for evaluation fixtures.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { visible } from '../../core/format/visible';
import { describeTarget, isServerUrl, redactUrl } from '../../adapters/postgres/target';
import { EXIT_ERROR, EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { copySqliteToPostgres, createDatabaseIfMissing, type CopyReport } from '../eval/copy-to-postgres';

const usage = `Usage: dowser copy-to-postgres --db <file.sqlite> --to <postgres://…/database> [--replace]
       dowser copy-to-postgres --spider <dir> --to <postgres://…/> [--prefix spider_] [--replace]

Copies a SQLite database into PostgreSQL for evaluation on a server. Column types come from
the values stored (integer, bigint, double precision, text, bytea; a column mixing text with
other values becomes text); names are lower-cased unless that makes two alike; declared
primary keys and unique constraints are added where the data allows, foreign keys as NOT VALID
constraints; views are skipped. Everything left out is printed as a note (on stderr).

Options:
  --db <file>      the SQLite file to copy (only read)
  --spider <dir>   copy every <dir>/<db>/<db>.sqlite into its own database <prefix><db>
                   (lower-cased; created when missing)
  --to <url>       the PostgreSQL database to write into; with --spider, the server (its
                   database part is only used to connect for CREATE DATABASE, default postgres).
                   The password: in the URL, or PGPASSWORD
  --prefix <p>     database name prefix with --spider (default spider_)
  --replace        drop the tables about to be created first; without it an existing table
                   is an error
  -h, --help       show this help
`;

const options = {
  db: { type: 'string' },
  spider: { type: 'string' },
  to: { type: 'string' },
  prefix: { type: 'string' },
  replace: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (positionals.length) throw new UsageError(`unexpected argument "${visible(hideSecret(positionals[0]))}"`);
  if (!values.db === !values.spider) throw new UsageError('name one of --db <file.sqlite> or --spider <dir>');
  if (!values.to) throw new UsageError('--to <postgres://…> is required');
  if (!isServerUrl(values.to))
    throw new UsageError(`--to needs a postgres:// URL, not "${visible(hideSecret(values.to))}"`);
  if (values.prefix !== undefined && values.db) throw new UsageError('--prefix goes with --spider');
  const prefix = values.prefix ?? 'spider_';
  if (!/^[a-z0-9_]*$/i.test(prefix)) throw new UsageError('--prefix may hold letters, digits and _ only');
  const replace = values.replace === true;
  if (values.db) {
    const path = resolve(values.db);
    if (!existsSync(path)) throw new UsageError(`"${visible(values.db)}" does not exist`);
    const report = await copySqliteToPostgres({ sqlitePath: path, url: values.to, replace });
    io.stdout.write(line(describe(values.to), report));
    writeNotes(io, '', report);
    return EXIT_OK;
  }
  return copySpider(resolve(values.spider!), values.to, prefix, replace, io);
}

async function copySpider(dir: string, url: string, prefix: string, replace: boolean, io: CliIo): Promise<number> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`"${visible(dir)}" is not a folder`);
  const dbs = readdirSync(dir).filter((d) => existsSync(join(dir, d, `${d}.sqlite`)));
  if (!dbs.length) throw new UsageError(`"${visible(dir)}" holds no <db>/<db>.sqlite`);
  const names = new Map<string, string>();
  for (const d of dbs) {
    const name = (prefix + d).toLowerCase();
    if (!/^[a-z0-9_]+$/.test(name))
      throw new UsageError(`database "${visible(d)}": its name may hold letters, digits and _ only`);
    if (names.has(name)) throw new UsageError(`databases "${names.get(name)}" and "${d}" would both be ${name}`);
    names.set(name, d);
  }
  const sorted = new Map([...names].sort(([a], [b]) => (a < b ? -1 : 1)));
  const admin = hasDatabase(url) ? url : withDatabase(url, 'postgres');
  const started = Date.now();
  let failed = 0;
  let tables = 0;
  let rows = 0;
  for (const [name, d] of sorted) {
    const target = withDatabase(url, name);
    try {
      await createDatabaseIfMissing(admin, name);
      const report = await copySqliteToPostgres({ sqlitePath: join(dir, d, `${d}.sqlite`), url: target, replace });
      io.stdout.write(line(describe(target), report));
      writeNotes(io, `${name}: `, report);
      tables += report.tables.length;
      rows += report.tables.reduce((n, t) => n + t.rows, 0);
    } catch (e) {
      failed++;
      io.stderr.write(`${name}: error: ${visible(hideSecret(e instanceof Error ? e.message : String(e)))}\n`);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  io.stderr.write(
    `copied ${names.size - failed} of ${names.size} databases (${tables} tables, ${rows} rows) in ${seconds} s\n`,
  );
  return failed ? EXIT_ERROR : EXIT_OK;
}

/** Any URL's password replaced (redactUrl knows postgres:// only). */
function hideSecret(text: string): string {
  return redactUrl(text).replace(/(\/\/[^:@/?#\s]*):[^@/?#\s]*@/g, '$1:[redacted]@');
}

function describe(url: string): string {
  return describeTarget({ url, env: process.env });
}

function line(target: string, r: CopyReport): string {
  const rows = r.tables.reduce((n, t) => n + t.rows, 0);
  return `${target}: ${r.tables.length} tables, ${rows} rows, ${r.notes.length} notes\n`;
}

function writeNotes(io: CliIo, lead: string, r: CopyReport): void {
  for (const n of r.notes) io.stderr.write(`${lead}note: ${visible(n)}\n`);
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/[^/?#]*)(\/[^?#]*)?(.*)$/is;

function hasDatabase(url: string): boolean {
  const path = URL_PARTS.exec(url)?.[2] ?? '';
  return path.length > 1;
}

/** The URL with its database part replaced (the query string, e.g. sslmode, kept). */
function withDatabase(url: string, database: string): string {
  const m = URL_PARTS.exec(url);
  if (!m) throw new UsageError(`--to needs a postgres:// URL, not "${visible(hideSecret(url))}"`);
  return `${m[1]}/${database}${m[3]}`;
}

export const copyToPostgresCommand: CliCommand = {
  name: 'copy-to-postgres',
  summary: 'copy a SQLite file (or a Spider folder) into PostgreSQL for evaluation',
  usage,
  run,
};
