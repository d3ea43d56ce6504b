// The work of `dowser direct` (commands/direct.ts), loaded only when the command runs.

import { runDirect } from '../../core/agent/direct';
import { DIRECT_MAX_SCHEMA_TOKENS, directSchemaTokens } from '../../core/agent/direct-prompt';
import { parsePositiveInt, EXIT_ERROR, EXIT_OK, type CliIo } from '../command';
import { toJson } from '../json';
import { renderEvent } from '../ask/render';
import { parseTaskArgs } from './task-options';
import { withTaskContext } from './task-context';
import { sqlText } from './task-render';

export async function runDirectCommand(args: string[], rawIo: CliIo, usage: string): Promise<number> {
  const parsed = parseTaskArgs(args, { hints: { type: 'string' }, 'max-rows': { type: 'string' } }, 'question');
  if (!parsed) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { options: o, values } = parsed;
  const maxRows = parsePositiveInt(values['max-rows'] as string | undefined, '--max-rows', 20);
  return withTaskContext(o, rawIo, async ({ io, model, schema, tools, signal, privacy }) => {
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
      privacy,
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
