// `dowser tools <tool> --db <file> …`: runs one retrieval tool the way the agent will, and prints
// what the agent would read (or the structured result with --json).

import {
  EXIT_ERROR,
  EXIT_OK,
  parseCommandArgs,
  parsePositiveInt,
  UsageError,
  type CliCommand,
  type CliIo,
} from '../command';
import { openDatabase, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE } from '../open-database';
import { toJson } from '../json';
import { visible, visibleKeepingLines } from '../../core/format/visible';

const usage = `Usage: dowser tools <tool> --db <file> [arguments] [--json]

Tools (the agent's four, plus the question linker):
  search-column "<phrase or question>" [--k N]     rank the columns that hold this data
  search-value  "<value>" [--table T] [--column C] [--k N]
                                                   find a value in the data (typos are fine)
  path <start> <end>                               how two tables (or table.column) join
  sql "<statement>"                                run one read-only statement, as the agent sees it
  link "<question>"                                which words name tables, columns or values

Options:
  --db <file>     the SQLite database file (required; never written)
  --json          print the structured result instead of the agent's text
  --k N           how many results (default 5)
  --table, --column   scope search-value
${TIMEOUT_USAGE}
  -h, --help      show this help
`;

const options = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  k: { type: 'string' },
  table: { type: 'string' },
  column: { type: 'string' },
  ...TIMEOUT_FLAG,
  help: { type: 'boolean', short: 'h' },
} as const;

const TOOL_OF: Record<string, string> = {
  'search-column': 'search_column',
  'search-value': 'search_value',
  path: 'find_shortest_path',
  sql: 'execute_sql',
};

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (values.help || positionals.length === 0) {
    io.stdout.write(usage);
    return values.help ? EXIT_OK : 2;
  }
  const [tool, ...rest] = positionals;
  if (!values.db) throw new UsageError('--db <file> is required');
  const k = values.k === undefined ? undefined : parsePositiveInt(values.k, '--k', 5);
  let toolArgs: Record<string, unknown>;
  switch (tool) {
    case 'search-column':
    case 'search-value':
    case 'sql':
    case 'link':
      if (rest.length !== 1) throw new UsageError(`${tool} takes one quoted argument`);
      toolArgs =
        tool === 'sql'
          ? { sql: rest[0] }
          : tool === 'link'
            ? { question: rest[0] }
            : {
                query: rest[0],
                ...(k ? { k } : {}),
                ...(tool === 'search-value' && values.table ? { table: values.table } : {}),
                ...(tool === 'search-value' && values.column ? { column: values.column } : {}),
              };
      break;
    case 'path':
      if (rest.length !== 2) throw new UsageError('path takes two arguments: <start> <end>');
      toolArgs = { start: rest[0], end: rest[1] };
      break;
    default:
      throw new UsageError(`unknown tool "${tool}"; one of: search-column, search-value, path, sql, link`);
  }

  const db = await openDatabase(values.db, parseTimeout(values.timeout));
  try {
    if (tool === 'link') {
      const links = await db.engine.linkQuestion(db.id, rest[0]);
      if (values.json) io.stdout.write(toJson(links, 2) + '\n');
      else
        for (const l of links)
          io.stdout.write(
            visible(
              `${JSON.stringify(l.text)} -> ${l.kind} ${l.table}${l.column ? '.' + l.column : ''}${l.value !== undefined ? ` = ${JSON.stringify(l.value)}` : ''} (${l.score})`,
            ) + '\n',
          );
      return EXIT_OK;
    }
    const outcome = await db.engine.callTool(db.id, TOOL_OF[tool], toolArgs);
    if (values.json) io.stdout.write(toJson(outcome, 2) + '\n');
    // The agent's text, with anything that could drive the terminal made visible.
    else io.stdout.write(visibleKeepingLines(outcome.observation) + '\n');
    return outcome.ok ? EXIT_OK : EXIT_ERROR;
  } finally {
    await db.close();
  }
}

export const toolsCommand: CliCommand = {
  name: 'tools',
  summary: 'run a retrieval tool (search-column, search-value, path, sql, link)',
  usage,
  run,
};
