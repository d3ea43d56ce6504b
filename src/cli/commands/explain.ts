// `dowser explain`: any SQL explained in plain words (what it returns, from which tables, with
// which filters and groupings), after running it read-only (core/tasks/explain-sql.ts).

import type { CliCommand } from '../command';
import { MODEL_USAGE } from '../tasks/task-options';
import { providerList } from '../model-flags';

const usage = `Usage: dowser explain --db <file> --provider ${providerList()} [--model <name>]
                      [--question "<q>"] [--json] "<sql>"

Explains a query in plain words: what it returns, from which tables, with which filters and
groupings. It runs first (read-only), so the model sees its columns and first rows; with
--question the model also says whether the result answers it.

Options:
${MODEL_USAGE}
  --question "<q>"     the question the SQL should answer (adds a verdict)

--json prints one object: explanation, verdict, structure {tables, filters, groupBy, orderBy,
limit}, outcome, note, usage.
Exit code: 0 when an explanation was written, 1 otherwise, 2 for usage errors.
`;

export const explainCommand: CliCommand = {
  name: 'explain',
  summary: 'explain any SQL in plain words: what it returns, tables, filters, groupings',
  usage,
  run: async (args, io) => (await import('../tasks/run-explain')).runExplain(args, io, usage),
};
