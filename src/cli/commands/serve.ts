// `dowser serve --db <postgres://… | file>` (issue 36): the page asks about a database it cannot
// open itself — a PostgreSQL server, or a large SQLite file on this machine's disk — through this
// process. It listens on 127.0.0.1 only and prints a link that opens once; the page calls the
// model itself, so keys never come here. Ctrl-C stops serving.

import { createInterface } from 'node:readline';
import { formatServeLink } from '../../core/remote/link';
import { DEFAULT_SERVE_LIMITS } from '../../core/remote/protocol';
import { visible } from '../../core/format/visible';
import { EXIT_OK, parseCommandArgs, parsePositiveInt, UsageError, type CliCommand, type CliIo } from '../command';
import { onInterrupt } from '../interrupt';
import { openDatabase, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE } from '../open-database';
import { parseServerFlags, SERVER_FLAGS, SERVER_USAGE } from '../server-database';
import { parseTableFileFlags, TABLE_FILE_FLAGS, tableFileUsage } from '../table-file-flags';
import { startServe } from '../serve/http-server';

export const DEFAULT_SERVE_PORT = 7357;
export const DEFAULT_PAGE = 'http://localhost:5173/';

const usage = `Usage: dowser serve --db <postgres://… | file> [--port <n>] [--page <url>] [--max-rows <n>] [--timeout <s>]

Lets the page (npm start, or wherever it is served) ask about a database it cannot open
itself: a PostgreSQL server, or a SQLite file on this machine's disk. Listens on 127.0.0.1
only and prints a link; opened in the browser, the page shows the database and calls your
model from the page as usual (keys never reach this process). Each link opens once: press
Enter for a new one. Everything stays read-only; rows, bytes and time are limited here too.
To reach a database on another machine, run serve there and forward the port
(ssh -L ${DEFAULT_SERVE_PORT}:127.0.0.1:${DEFAULT_SERVE_PORT} host).

Options:
  --db <url|file>  postgres://user@host:port/database (or the libpq variables), or a SQLite,
                   CSV, TSV or JSON file
  --port <n>       the port on 127.0.0.1 (default ${DEFAULT_SERVE_PORT}; 0: any free port)
  --page <url>     the page's address (default ${DEFAULT_PAGE}): only its origin is answered
  --max-rows <n>   most rows one statement returns to the page (default ${DEFAULT_SERVE_LIMITS.maxRows})
${SERVER_USAGE}
${tableFileUsage()}
${TIMEOUT_USAGE}
  -h, --help       show this help
`;

const options = {
  db: { type: 'string' },
  port: { type: 'string' },
  page: { type: 'string' },
  'max-rows': { type: 'string' },
  ...SERVER_FLAGS,
  ...TABLE_FILE_FLAGS,
  ...TIMEOUT_FLAG,
  help: { type: 'boolean', short: 'h' },
} as const;

function parsePage(value: string | undefined): URL {
  const text = value ?? DEFAULT_PAGE;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--page needs the page's address, such as ${DEFAULT_PAGE}, not "${visible(text)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--page needs an http or https address, not "${visible(text)}"`);
  return url;
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SERVE_PORT;
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--port needs a port number, not "${visible(value)}"`);
  return Number(value);
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (!values.db) throw new UsageError('--db <postgres://… | file> is required');
  if (positionals.length) throw new UsageError(`unexpected argument "${visible(positionals[0])}"`);
  const page = parsePage(values.page);
  const port = parsePort(values.port);
  const maxRows = parsePositiveInt(values['max-rows'], '--max-rows', DEFAULT_SERVE_LIMITS.maxRows);
  const say = (line: string) => io.stderr.write(line + '\n');
  const db = await openDatabase(values.db, parseTimeout(values.timeout), say, {
    ...parseTableFileFlags(values),
    server: parseServerFlags(values),
    io,
  });
  try {
    const served = await startServe({
      database: db,
      pageOrigin: page.origin,
      limits: { ...DEFAULT_SERVE_LIMITS, maxRows },
      port,
      log: (line) => say(visible(line)),
    }).catch((e: NodeJS.ErrnoException) => {
      throw e.code === 'EADDRINUSE' ? new UsageError(`port ${port} is in use: pick another with --port`) : e;
    });
    const link = () => formatServeLink(page.href, { origin: served.origin, token: served.newToken() });
    const where = db.report.server?.target ?? db.report.name;
    io.stdout.write(
      `Serving ${visible(where)} read-only on ${served.origin} for the page at ${page.origin}.\n` +
        `Open this link in the browser (it opens once; press Enter here for a new one):\n\n  ${link()}\n\n` +
        'Ctrl-C stops serving.\n',
    );
    // A line on stdin (Enter at a terminal) prints a new link.
    const lines = createInterface({ input: process.stdin });
    lines.on('line', () => io.stdout.write(`\n  ${link()}\n\n`));
    await new Promise<void>((stop) => onInterrupt(stop));
    lines.close();
    await served.close();
    return EXIT_OK;
  } finally {
    await db.close();
  }
}

export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'let the page ask about a PostgreSQL database or a file on this machine',
  usage,
  run,
};
