// `dowser direct`: one question answered in one model call without tools (Direct mode, the
// study's plain template), the SQL run read-only, repaired once if it fails, and explained.
// Events and output are those of `dowser ask`.

import { DIRECT_MAX_SCHEMA_TOKENS } from '../../core/agent/direct-prompt';
import type { CliCommand } from '../command';
import { MODEL_USAGE } from '../tasks/task-options';
import { providerList } from '../model-flags';

const usage = `Usage: dowser direct --db <file> --provider ${providerList()} [--model <name>]
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

export const directCommand: CliCommand = {
  name: 'direct',
  summary: 'answer a question in one model call without tools (Direct mode), run and explain the SQL',
  usage,
  run: async (args, io) => (await import('../tasks/run-direct')).runDirectCommand(args, io, usage),
};
