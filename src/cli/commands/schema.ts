// `dowser schema --db <file>`: what opening the file found, the schema, and column statistics.

import { formatSchemaText, type ColumnStatsEntry } from '../../core/format/schema-text';
import type { Schema } from '../../core/types';
import { EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { openDatabase, type OpenedDatabase } from '../open-database';
import { toJson } from '../json';

const usage = `Usage: dowser schema --db <file> [--json] [--no-stats]

Prints what opening the file found (size, SQLite version, integrity check, issues), then
every table and view: row count, columns (type, PK/FK, NOT NULL, default), foreign keys,
indexes, and one line of statistics per column. Statistics of large tables come from their
first rows and are marked "approx".

Options:
  --db <file>      the SQLite database file (required)
  --json           print {report, schema, stats} as JSON (blobs as 0x… hex)
  --no-stats       skip column statistics (faster on large files)
  -h, --help       show this help
`;

const options = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  'no-stats': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Statistics for every column of every readable table and view; one failure does not stop the rest. */
async function allColumnStats(db: OpenedDatabase, schema: Schema): Promise<ColumnStatsEntry[]> {
  const out: ColumnStatsEntry[] = [];
  for (const t of schema.tables) {
    if (t.error || t.rowCount === null) continue;
    for (const c of t.columns) {
      try {
        out.push(await db.engine.columnStats(db.id, t.name, c.name));
      } catch (e) {
        out.push({ table: t.name, column: c.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }
  return out;
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (!values.db) throw new UsageError('--db <file> is required');
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);

  const db = await openDatabase(io, values.db);
  try {
    const report = await db.engine.check(db.id);
    const schema = await db.engine.introspect(db.id);
    const stats = values['no-stats'] ? null : await allColumnStats(db, schema);
    if (values.json) io.stdout.write(toJson({ report, schema, stats }, 2) + '\n');
    else io.stdout.write(formatSchemaText(report, schema, stats));
    return EXIT_OK;
  } finally {
    await db.close();
  }
}

export const schemaCommand: CliCommand = {
  name: 'schema',
  summary: 'show the schema, integrity findings and column statistics',
  usage,
  run,
};
