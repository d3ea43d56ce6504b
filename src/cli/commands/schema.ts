// `dowser schema --db <file>`: what opening the file found, the schema, and column statistics,
// all within a time budget (a file with 10,000 tables or 1,000 nested views still finishes).

import { formatSchemaText, type ColumnStatsEntry } from '../../core/format/schema-text';
import type { Schema } from '../../core/types';
import { EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { parseTableFileFlags, TABLE_FILE_FLAGS, tableFileUsage } from '../table-file-flags';
import { parseServerFlags, SERVER_FLAGS, SERVER_USAGE } from '../server-database';
import { openDatabase, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE, type OpenedDatabase } from '../open-database';
import { toJson } from '../json';

const DEFAULT_BUDGET_S = 30;

const usage = `Usage: dowser schema --db <file> [--json] [--no-stats] [--budget <s>] [--timeout <s>]

Prints what opening the file found (size, SQLite version, integrity check, issues), then
every table and view: row count, columns (type, PK/FK, NOT NULL, default), foreign keys,
indexes, and one line of statistics per column. Statistics of large tables come from their
first rows and are marked "approx".

Options:
  --db <file>      the SQLite database file (required), or postgres://user@host:port/database
  --json           print {report, schema, stats} as JSON (blobs as 0x… hex)
  --no-stats       skip column statistics (faster on large files)
  --budget <s>     stop reading after about this many seconds (default ${DEFAULT_BUDGET_S}): objects and
                   statistics not reached by then are listed as not read
${tableFileUsage()}
${SERVER_USAGE}
${TIMEOUT_USAGE}
  -h, --help       show this help
`;

const options = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  'no-stats': { type: 'boolean' },
  budget: { type: 'string' },
  ...TABLE_FILE_FLAGS,
  ...SERVER_FLAGS,
  ...TIMEOUT_FLAG,
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Statistics for every column of every readable table and view until `deadline`; one failure
 * does not stop the rest. Returns how many columns the deadline left out.
 */
async function allColumnStats(
  db: OpenedDatabase,
  schema: Schema,
  deadline: number,
): Promise<{ stats: ColumnStatsEntry[]; skipped: number }> {
  const stats: ColumnStatsEntry[] = [];
  let skipped = 0;
  for (const t of schema.tables) {
    if (t.error || t.rowCount === null) continue;
    for (const c of t.columns) {
      if (Date.now() > deadline) {
        skipped++;
        continue;
      }
      try {
        stats.push(await db.engine.columnStats(db.id, t.name, c.name));
      } catch (e) {
        stats.push({ table: t.name, column: c.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  return { stats, skipped };
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (!values.db) throw new UsageError('--db <file> is required');
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const timeoutMs = parseTimeout(values.timeout);
  const budgetMs = values.budget === undefined ? DEFAULT_BUDGET_S * 1000 : parseBudget(values.budget);
  const started = Date.now();

  const db = await openDatabase(values.db, timeoutMs, undefined, {
    ...parseTableFileFlags(values),
    server: parseServerFlags(values),
    io,
  });
  try {
    const report = await db.engine.check(db.id);
    // Half the budget for the objects, the rest (at least) for their statistics.
    const schema = await db.engine.introspect(db.id, { budgetMs: budgetMs / 2 });
    const counted = values['no-stats'] ? null : await allColumnStats(db, schema, started + budgetMs);
    const stats = counted?.stats ?? null;
    if (values.json) io.stdout.write(toJson({ report, schema, stats, statsSkipped: counted?.skipped ?? 0 }, 2) + '\n');
    else io.stdout.write(formatSchemaText(report, schema, stats));
    if (counted?.skipped)
      io.stderr.write(
        `note: statistics of ${counted.skipped} columns were not computed within the ${budgetMs / 1000} s budget (raise --budget, or --no-stats)\n`,
      );
    return EXIT_OK;
  } finally {
    await db.close();
  }
}

function parseBudget(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0))
    throw new UsageError(`--budget needs a number of seconds above 0, not "${value}"`);
  return Math.round(seconds * 1000);
}

export const schemaCommand: CliCommand = {
  name: 'schema',
  summary: 'show the schema, integrity findings and column statistics',
  usage,
  run,
};
