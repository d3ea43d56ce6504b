// `dowser direct`: one question answered in one model call without tools (Direct mode, the
// study's plain template), the SQL run read-only, repaired once if it fails, and explained.
// Events and output are those of `dowser ask`.

import { runDirect } from '../../core/agent/direct';
import { DIRECT_MAX_SCHEMA_TOKENS, directSchemaTokens } from '../../core/agent/direct-prompt';
import { parsePositiveInt, EXIT_ERROR, EXIT_OK, type CliCommand, type CliIo } from '../command';
import { toJson } from '../json';
import { renderEvent } from '../ask/render';
import { MODEL_USAGE, parseTaskArgs } from '../tasks/task-options';
import { withTaskContext } from '../tasks/task-context';
import { sqlText } from '../tasks/task-render';

const usage = `Usage: dowser direct --db <file> --provider openai|anthropic|scripted [--model <name>]
                     [--base-url <url>] [--api-key-env <VAR>] [--hints "<h>"] [--max-rows N]
                     [--json] "<question>"

Direct mode: the whole schema as \`table(col, …)\` lines with the foreign keys, the question as a
heading, then \`SQL:\`, in one model call without tools. The SQL runs read-only; when it fails the
model gets the error with repair hints once; the SQL that ran is explained in plain words. For
small schemas: above about ${DIRECT_MAX_SCHEMA_TOKENS} tokens of schema it warns and suggests \`dowser ask\`.

Options:
${MODEL_USAGE}
  --hints "<h>"        extra knowledge the question needs
  --max-rows N         rows of the answer to print (default 20)

--json prints the events of \`dowser ask --json\` (status, thought_delta, usage, sql, final or error).
Exit code: 0 when a final SQL ran, 1 otherwise, 2 for usage errors.
`;

async function runDirectCommand(args: string[], rawIo: CliIo): Promise<number> {
  const parsed = parseTaskArgs(args, { hints: { type: 'string' }, 'max-rows': { type: 'string' } }, 'question');
  if (!parsed) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { options: o, values } = parsed;
  const maxRows = parsePositiveInt(values['max-rows'] as string | undefined, '--max-rows', 20);
  return withTaskContext(o, rawIo, async ({ io, model, schema, tools, signal }) => {
    const tokens = directSchemaTokens(schema);
    if (tokens > DIRECT_MAX_SCHEMA_TOKENS)
      io.stderr.write(
        `warning: the schema is about ${tokens} tokens, above the ${DIRECT_MAX_SCHEMA_TOKENS} Direct is made for; \`dowser ask\` looks columns up with its tools instead.\n`,
      );
    let final = false;
    for await (const e of runDirect({
      question: o.text,
      hints: (values.hints as string | undefined)?.trim() || undefined,
      model,
      tools,
      schema,
      signal,
      finalRows: maxRows,
      toolTimeoutMs: o.timeoutMs,
    })) {
      if (e.type === 'final') final = true;
      if (o.json) io.stdout.write(toJson(e) + '\n');
      else {
        // The reply streams as deltas only: the human log shows each SQL that ran instead.
        if (e.type === 'sql') io.stdout.write(`sql:\n${sqlText(e.sql)}\n`);
        renderEvent(e, io);
      }
    }
    return final ? EXIT_OK : EXIT_ERROR;
  });
}

export const directCommand: CliCommand = {
  name: 'direct',
  summary: 'answer a question in one model call without tools (Direct mode), run and explain the SQL',
  usage,
  run: runDirectCommand,
};
