// `dowser sql --db <file> "<sql>"`: runs one read-only statement and prints its rows.

import { DEFAULT_MAX_ROWS, EXPORT_MAX_CELL_CHARS, EXPORT_MAX_RESULT_BYTES } from '../../core/db/result-budget';
import { resultToCsv } from '../../core/export/csv';
import { jsonValue } from '../../core/export/values';
import { formatTextTable } from '../../core/format/text-table';
import { escapeJsonForDisplay, visible, visibleKeepingLines } from '../../core/format/visible';
import type { QueryResult } from '../../core/types';
import { CHART_FLAGS, CHART_USAGE, parseChartFlags, writeChart } from '../chart-flags';
import {
  EXIT_ERROR,
  EXIT_OK,
  parseCommandArgs,
  parsePositiveInt,
  UsageError,
  type CliCommand,
  type CliIo,
} from '../command';
import { parseTableFileFlags, TABLE_FILE_FLAGS, tableFileUsage } from '../table-file-flags';
import { parseServerFlags, SERVER_FLAGS, SERVER_USAGE } from '../server-database';
import { openDatabase, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE } from '../open-database';

const usage = `Usage: dowser sql --db <file> "<sql>" [--json | --csv [--protect-formulas]] [--max-rows N]
                  [--timeout <s>] [--chart <file.svg> [--chart-type T] [--x C] [--y C] [--series C]]

Runs one read-only statement (SELECT, WITH … SELECT, VALUES, EXPLAIN, read-only PRAGMA)
against a SQLite file and prints the rows. The file is read into memory and never written.
On a PostgreSQL database (--db postgres://user@host/db, or PG* variables with --db postgres://)
the statement runs in a read-only transaction that is rolled back; the time limit is the server's.

Options:
  --db <file>      the SQLite database file (required), or a CSV, TSV or JSON file to import,
                   or a PostgreSQL database: postgres://user@host:port/database
${tableFileUsage()}
${SERVER_USAGE}
  --json           print {columns, rows, truncated, elapsedMs} as JSON (blobs as 0x… hex;
                   bidi controls and U+2028 as \\uXXXX escapes, the same value to a JSON reader)
  --csv            print RFC 4180 CSV with a header row (NULL as an empty field). Control
                   characters other than tab and line breaks (ESC, bidi controls …) are written
                   as visible escapes such as \\x1b, so the output cannot drive a terminal;
                   --json keeps every value exactly
  --protect-formulas  with --csv: put ' before text that a spreadsheet would run as a formula
                   (starting with = + - @, tab or CR); off by default, since this output is
                   usually read by programs (the page's CSV download has it on)
  --max-rows N     stop after N rows (default ${DEFAULT_MAX_ROWS}); more rows are reported as truncated
${TIMEOUT_USAGE}
${CHART_USAGE}
  -h, --help       show this help

Long values are cut (100,000 characters in the table; 16 MiB with --json/--csv, where rows
also stop at 512 MiB); what was cut is said on stderr.

SQL that starts with "-" (a comment) goes after "--": dowser sql --db f.sqlite -- "-- note
SELECT 1"
`;

/** Cut values named one by one on stderr; the rest are counted. */
const CUT_NOTES = 5;

const options = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  csv: { type: 'boolean' },
  'protect-formulas': { type: 'boolean' },
  'max-rows': { type: 'string' },
  ...TIMEOUT_FLAG,
  ...TABLE_FILE_FLAGS,
  ...SERVER_FLAGS,
  ...CHART_FLAGS,
  help: { type: 'boolean', short: 'h' },
} as const;

/** `{columns, rows, truncated, elapsedMs}`, one row per line: readable, and still plain JSON. */
export function resultJson(r: QueryResult): string {
  const rows = r.rows.map((row) => `    ${JSON.stringify(row.map(jsonValue))}`);
  return escapeJsonForDisplay(
    [
      '{',
      `  "columns": ${JSON.stringify(r.columns)},`,
      rows.length ? `  "rows": [\n${rows.join(',\n')}\n  ],` : '  "rows": [],',
      `  "truncated": ${r.truncated},`,
      `  "elapsedMs": ${JSON.stringify(r.elapsedMs)}`,
      '}',
    ].join('\n') + '\n',
  );
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (!values.db) throw new UsageError('--db <file> is required');
  if (positionals.length === 0) throw new UsageError('no SQL statement given');
  if (positionals.length > 1)
    throw new UsageError(`expected one SQL statement in quotes, got ${positionals.length} arguments`);
  if (values.json && values.csv) throw new UsageError('--json and --csv cannot be combined');
  if (values['protect-formulas'] && !values.csv) throw new UsageError('--protect-formulas goes with --csv');
  const maxRows = parsePositiveInt(values['max-rows'], '--max-rows', DEFAULT_MAX_ROWS);
  const timeoutMs = parseTimeout(values.timeout);
  const chart = parseChartFlags(values);
  // Machine-readable output is the data: bounds as large as an export's.
  const bounds =
    values.json || values.csv ? { maxCellChars: EXPORT_MAX_CELL_CHARS, maxResultBytes: EXPORT_MAX_RESULT_BYTES } : {};

  const db = await openDatabase(values.db, timeoutMs, (line) => io.stderr.write(line + '\n'), {
    ...parseTableFileFlags(values),
    server: parseServerFlags(values),
    io,
  });
  try {
    const result = await db.engine.query(db.id, positionals[0], { maxRows, ...bounds });
    if (values.json) io.stdout.write(resultJson(result));
    else if (values.csv)
      io.stdout.write(resultToCsv(result, { protectFormulas: values['protect-formulas'], text: visibleKeepingLines }));
    else io.stdout.write(formatTextTable(result, { maxWidth: io.columns }));
    // CSV cannot say it was cut short, and JSON readers may miss the flag: say it on stderr too.
    if (result.byteLimit) {
      io.stderr.write(
        `note: only the first ${result.rows.length} rows are shown: the result reached ${result.byteLimit} bytes\n`,
      );
    } else if (result.truncated && (values.json || values.csv)) {
      io.stderr.write(`note: only the first ${result.rows.length} rows are shown; raise --max-rows to get more\n`);
    }
    const cut = result.cut ?? [];
    for (const c of cut.slice(0, CUT_NOTES))
      io.stderr.write(
        `note: row ${result.offset + c.row + 1}, column ${visible(result.columns[c.column])} is cut: it holds ${c.length} ${typeof result.rows[c.row][c.column] === 'string' ? 'characters' : 'bytes'}\n`,
      );
    if (cut.length > CUT_NOTES) io.stderr.write(`note: ${cut.length - CUT_NOTES} more values are cut\n`);
    if (chart && !(await writeChart(chart, result, io))) return EXIT_ERROR;
    return EXIT_OK;
  } finally {
    await db.close();
  }
}

export const sqlCommand: CliCommand = {
  name: 'sql',
  summary: 'run one read-only SQL statement and print the rows',
  usage,
  run,
};
