// `dowser link --db <file> "question"`: the tables and columns a question likely needs — the
// structure linker united with the names of a preliminary Direct SQL when a model is given
// (core/link/). Same provider options as `ask`; without --provider, the linker alone, said so.

import { parseServerFlags, SERVER_USAGE } from '../server-database';
import { runLink } from '../../core/link/run-link';
import type { SchemaLinkResult } from '../../core/link/schema-link';
import { visible } from '../../core/format/visible';
import { redactSecrets } from '../../core/security/redact';
import { EXIT_OK, parseCommandArgs, UsageError, type CliCommand, type CliIo } from '../command';
import { toJson } from '../json';
import { openDatabase, parseTimeout, TIMEOUT_USAGE } from '../open-database';
import { parseTableFileFlags, tableFileUsage } from '../table-file-flags';
import { MODEL_FLAGS } from '../tasks/task-options';
import { createAskModel, DEFAULT_OPENAI_URL } from '../ask/model';
import { parsePrivacyFlag, type AskOptions } from '../ask/options';
import {
  cliAnswerLimits,
  keyEnvUsage,
  modelLimitsUsage,
  parseModelFlags,
  providerList,
  providerUsage,
} from '../model-flags';
import { AnswerBudget } from '../../core/agent/answer-budget';
import { PRIVACY_HELP, privacyFor, privacyNote } from '../ask/privacy';

const usage = `Usage: dowser link --db <file> "<question>" [--provider ${providerList()} --model <name>
                  [--base-url <url>] [--api-key-env <VAR>] [--script <turns.json>] [--privacy <level>]
                  [--model-timeout <s>] [--answer-time <s>]]
                  [--json] [--timeout <s>]

The tables and columns a question likely needs: what the structure linker ties words of the
question to (names, parts of names, cell values), united with the tables and columns of a
preliminary SQL the model writes with the Direct template (when a model is given; the SQL is not
run). Without --provider, the linker alone.

Options:
  --db <file>          the SQLite database file (required; never written)
${providerUsage()}
  --model <name>       the model name (required except for scripted)
  --base-url <url>     server URL (openai default ${DEFAULT_OPENAI_URL})
${keyEnvUsage()}
  --script <file>      scripted provider: a JSON list of turns (the first is the preliminary SQL)
${modelLimitsUsage(23, 'the preliminary SQL')}
${PRIVACY_HELP}
  --json               the result as JSON: {tables: [{table, from, columns: [{column, from}]}], preSql, note}
${tableFileUsage(23)}
${SERVER_USAGE}
${TIMEOUT_USAGE}
  -h, --help           show this help
`;

// The same flags as the other model commands (direct, fix, optimize, explain).
const options = MODEL_FLAGS;

function render(result: SchemaLinkResult, io: CliIo) {
  if (result.note) io.stderr.write(result.note + '\n');
  if (result.preSql) io.stdout.write(`Preliminary SQL: ${visible(result.preSql)}\n`);
  if (result.tables.length === 0) io.stdout.write('No table or column is linked to the question.\n');
  for (const t of result.tables) {
    const cols = t.columns.map((c) => `${c.column} (${c.from.join('+')})`).join(', ');
    io.stdout.write(visible(`${t.table} (${t.from.join('+')})${cols ? `: ${cols}` : ''}`) + '\n');
  }
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values: v, positionals } = parseCommandArgs(args, options);
  if (v.help) {
    io.stdout.write(usage);
    return EXIT_OK;
  }
  if (!v.db) throw new UsageError('--db <file> is required');
  if (positionals.length !== 1 || !positionals[0].trim())
    throw new UsageError('give the question as one quoted argument');
  const model = parseModelFlags(v, { required: false });
  const question = positionals[0].trim();
  const privacy = parsePrivacyFlag(v.privacy);
  const ask: AskOptions | null = model
    ? {
        db: v.db,
        question,
        ...model,
        json: !!v.json,
        nonInteractive: true,
        pauseAfterPlan: false,
        privacy,
      }
    : null;
  const chat = ask ? createAskModel(ask, io) : null;
  const level = ask ? privacyFor(ask) : 'full';
  if (ask && !v.json) io.stderr.write(privacyNote(ask, level));
  const db = await openDatabase(v.db, parseTimeout(v.timeout), undefined, {
    ...parseTableFileFlags(v),
    server: parseServerFlags(v),
    io,
  });
  let budget: AnswerBudget | undefined;
  try {
    const schema = await db.engine.introspect(db.id);
    const links = await db.engine.linkQuestion(db.id, question);
    // The preliminary SQL within the time of an answer (decision 068).
    budget = ask ? new AnswerBudget(cliAnswerLimits(ask)) : undefined;
    const model = chat && budget ? budget.model(chat.model) : null;
    const result = await runLink({ question, schema, links, model, privacy: level });
    // A provider's error text may echo the key: it never reaches the output.
    const safe = { ...result, note: result.note && redactSecrets(result.note, [chat?.secret]) };
    if (v.json) io.stdout.write(toJson(safe, 2) + '\n');
    else render(safe, io);
    return EXIT_OK;
  } finally {
    budget?.end();
    await db.close();
  }
}

export const linkCommand: CliCommand = {
  name: 'link',
  summary: 'the tables and columns a question likely needs (linker + preliminary SQL)',
  usage,
  run,
};
