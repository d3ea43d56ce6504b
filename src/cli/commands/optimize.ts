// `dowser optimize`: the model proposes a faster equivalent query; both run read-only, their full
// results are compared and each is timed (median of several interleaved runs); the rewrite is
// accepted only with identical results and faster by the margin (core/tasks/optimize-sql.ts).

import { OPTIMIZE_MARGIN, OPTIMIZE_MIN_SAVING_MS } from '../../core/tasks/optimize-rule';
import type { CliCommand } from '../command';
import { MODEL_USAGE } from '../tasks/task-options';
import { providerList } from '../model-flags';

const usage = `Usage: dowser optimize --db <file> --provider ${providerList()} [--model <name>]
                       [--runs N] [--margin F] [--json] "<sql>"

Asks the model for a faster query with the same result. Both run read-only; their whole results
are compared (as multisets, or row by row when the SQL has a top-level ORDER BY) and each is
timed, interleaved, as the median of --runs runs (default 7, fewer when 10 s are spent). The
rewrite is accepted only when the results are identical, its median is at most (1 − margin)
of the original's (default margin ${OPTIMIZE_MARGIN}: 20% faster), it saves at least ${OPTIMIZE_MIN_SAVING_MS} ms and
it is faster in every interleaved pair of runs (a burst of load on the machine is not a speed-up). Both EXPLAIN QUERY PLANs are printed.
With identical results, the study's C-VES term √(original time / rewrite time) is reported.

Options:
${MODEL_USAGE}
  --runs N             timed runs of each query (default 7)
  --margin F           how much faster the rewrite must be, as a fraction (default ${OPTIMIZE_MARGIN})

--json prints one object: status (accepted, rejected, failed), reason, original and rewrite
{sql, plan, timesMs, medianMs, rows}, sameResults, comparedInOrder, margin, speedup, cVes, usage.
Exit code: 0 when the rewrite was judged (accepted or rejected), 1 when it could not be, 2 for usage errors.
`;

export const optimizeCommand: CliCommand = {
  name: 'optimize',
  summary: 'ask for a faster equivalent query; accept it only with identical results and a clear speed-up',
  usage,
  run: async (args, io) => (await import('../tasks/run-optimize')).runOptimize(args, io, usage),
};
