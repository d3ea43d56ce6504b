// `dowser tools <tool> --db <file> …`: runs one retrieval tool the way the agent will, and prints
// what the agent would read (or the structured result with --json).

import { parseServerFlags, SERVER_FLAGS, SERVER_USAGE } from '../server-database';
import { EXIT_ERROR, EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { parseTableFileFlags, TABLE_FILE_FLAGS, tableFileUsage } from '../table-file-flags';
import { openDatabase, parseTimeout, TIMEOUT_FLAG, TIMEOUT_USAGE } from '../open-database';
import { toJson } from '../json';
import { visible, visibleKeepingLines } from '../../core/format/visible';
import { argsOfFields, handTools, type HandTool } from '../../core/tools/face';

/** The tools a person can run, from the registry (core/tools): each tool's face names its command and arguments. */
const TOOLS = handTools();
const LINK = { command: 'link', hint: 'which words name tables, columns or values' };

/** Flags of the tools' non-positional fields (`--table`, `--k` …), each once. */
const FIELD_FLAGS = Object.fromEntries(
  TOOLS.flatMap((t) => t.face.fields.filter((f) => !f.positional).map((f) => [f.name, { type: 'string' as const }])),
);

function toolLine({ face }: HandTool): string {
  const args = face.fields.map((f) =>
    f.positional
      ? `"<${f.label.toLowerCase()}>"`
      : `[--${f.name} ${f.kind === 'number' ? 'N' : f.label.split(' ')[0]}]`,
  );
  return `  ${[face.command, ...args].join(' ')}\n      ${face.hint}`;
}

const usage = `Usage: dowser tools <tool> --db <file> [arguments] [--json]

Tools (the agent's, plus the question linker):
${TOOLS.map(toolLine).join('\n')}
  ${LINK.command} "<question>"
      ${LINK.hint}

Options:
  --db <file>     the SQLite database file (required; never written)
  --json          print the structured result instead of the agent's text
${tableFileUsage(18)}
${SERVER_USAGE}
${TIMEOUT_USAGE}
  -h, --help      show this help
`;

const options = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  ...FIELD_FLAGS,
  ...TABLE_FILE_FLAGS,
  ...SERVER_FLAGS,
  ...TIMEOUT_FLAG,
  help: { type: 'boolean', short: 'h' },
} as const;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values: v, positionals } = parseCommandArgs(args, options);
  const values = v as Record<string, string | boolean | undefined>;
  if (values.help || positionals.length === 0) {
    io.stdout.write(usage);
    return values.help ? EXIT_OK : 2;
  }
  const [command, ...rest] = positionals;
  if (!values.db) throw new UsageError('--db <file> is required');
  const tool = TOOLS.find((t) => t.face.command === command);
  if (!tool && command !== LINK.command)
    throw new UsageError(
      `unknown tool "${command}"; one of: ${[...TOOLS.map((t) => t.face.command), LINK.command].join(', ')}`,
    );
  const positional = tool ? tool.face.fields.filter((f) => f.positional) : [{ name: 'question' }];
  if (rest.length !== positional.length)
    throw new UsageError(
      positional.length === 1
        ? `${command} takes one quoted argument`
        : `${command} takes ${positional.length} arguments: ${positional.map((f) => `<${f.name}>`).join(' ')}`,
    );
  // Flags that belong to another tool are refused, not silently dropped.
  const own = new Set(tool?.face.fields.map((f) => f.name) ?? []);
  const stray = Object.keys(FIELD_FLAGS).find((f) => values[f] !== undefined && !own.has(f));
  if (stray) throw new UsageError(`--${stray} is not an argument of ${command}`);
  const typed: Record<string, string | undefined> = Object.fromEntries(positional.map((f, i) => [f.name, rest[i]]));
  for (const f of tool?.face.fields ?? []) if (!f.positional) typed[f.name] = values[f.name] as string | undefined;

  const db = await openDatabase(String(values.db), parseTimeout(v.timeout), undefined, {
    ...parseTableFileFlags(v),
    server: parseServerFlags(v),
    io,
  });
  try {
    if (!tool) {
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
    const outcome = await db.engine.callTool(db.id, tool.name, argsOfFields(tool.face, typed));
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
  summary: `run a retrieval tool (${[...TOOLS.map((t) => t.face.command), LINK.command].join(', ')})`,
  usage,
  run,
};
