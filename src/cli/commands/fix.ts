// `dowser fix`: SQL that fails, returns no rows, or that --note says is wrong goes to the model
// with the question, SQLite's error and the tools' repair detail; each proposal runs read-only;
// at most 2 rounds, then what was tried (core/tasks/fix-sql.ts).

import type { CliCommand } from '../command';
import { MODEL_USAGE } from '../tasks/task-options';
import { providerList } from '../model-flags';

const usage = `Usage: dowser fix --db <file> --provider ${providerList()} [--model <name>]
                  [--question "<q>"] [--note "<what is wrong>"] [--rounds N] [--json] "<sql>"

Repairs a query. It runs first (read-only); when it fails, returns no rows, or --note says what is
wrong with it, the model gets the question, the SQL, SQLite's error and the detail the tools
compute (close names, the filter or join that emptied the result) and proposes a fix, which runs.
At most --rounds proposals (default 2), then it says what it tried.

Options:
${MODEL_USAGE}
  --question "<q>"     what the SQL should answer
  --note "<text>"      what is wrong with it (for SQL that runs but gives the wrong answer)
  --rounds N           proposals at most (default 2)

--json prints one object: status (fixed, not_fixed, nothing_to_fix, failed), problem, original,
attempts [{sql, observation, outcome, problem}], fixed, summary, usage.
Exit code: 0 when fixed or nothing to fix, 1 otherwise, 2 for usage errors.
`;

export const fixCommand: CliCommand = {
  name: 'fix',
  summary: 'repair SQL that fails, returns no rows or is wrong by a note, in at most 2 rounds',
  usage,
  run: async (args, io) => (await import('../tasks/run-fix')).runFix(args, io, usage),
};
