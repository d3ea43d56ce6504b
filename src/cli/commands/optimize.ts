// `dowser optimize`: the model proposes a faster equivalent query; both run read-only, their full
// results are compared and each is timed (median of several interleaved runs); the rewrite is
// accepted only with identical results and faster by the margin (core/tasks/optimize-sql.ts).

import { OPTIMIZE_MARGIN, OPTIMIZE_MIN_SAVING_MS, optimizeSql } from '../../core/tasks/optimize-sql';
import { visible } from '../../core/format/visible';
import { EXIT_ERROR, EXIT_OK, parsePositiveInt, type CliCommand, type CliIo } from '../command';
import { toJson } from '../json';
import { MODEL_USAGE, parseFraction, parseTaskArgs } from '../tasks/task-options';
import { withTaskContext } from '../tasks/task-context';
import { diffText, indent, sideBySide } from '../tasks/task-render';

const usage = `Usage: dowser optimize --db <file> --provider openai|anthropic|scripted [--model <name>]
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

async function runOptimize(args: string[], rawIo: CliIo): Promise<number> {
  const parsed = parseTaskArgs(args, { runs: { type: 'string' }, margin: { type: 'string' } }, 'SQL');
  if (!parsed) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { options: o, values } = parsed;
  const runs = parsePositiveInt(values.runs as string | undefined, '--runs', 5);
  const margin = parseFraction(values.margin as string | undefined, '--margin', OPTIMIZE_MARGIN);
  return withTaskContext(
    o,
    rawIo,
    async ({ io, model, schema, exec, signal }) => {
      const r = await optimizeSql({ sql: o.text, schema, model, exec, signal, runs, margin });
      if (o.json) io.stdout.write(toJson(r) + '\n');
      else {
        const out = [`${r.status}: ${visible(r.reason)}`];
        if (r.rewrite?.sql) out.push(`rewrite (diff):\n${indent(diffText(r.original.sql, r.rewrite.sql))}`);
        if (r.rewrite?.medianMs != null && r.original.medianMs != null)
          out.push(
            `median ${r.original.medianMs.toFixed(2)} ms → ${r.rewrite.medianMs.toFixed(2)} ms` +
              ` (${r.original.timesMs.length} runs each; margin ${Math.round(r.margin * 100)}%)` +
              (r.cVes === null ? '' : `; C-VES term √(t_orig/t_new) = ${r.cVes.toFixed(3)}`),
          );
        if (r.original.plan.length || r.rewrite?.plan.length)
          out.push(sideBySide(r.original.plan, r.rewrite?.plan ?? [], ['original plan', 'rewrite plan']));
        io.stdout.write(out.join('\n\n') + '\n');
      }
      return r.status === 'failed' ? EXIT_ERROR : EXIT_OK;
    },
    { tools: false },
  );
}

export const optimizeCommand: CliCommand = {
  name: 'optimize',
  summary: 'ask for a faster equivalent query; accept it only with identical results and a clear speed-up',
  usage,
  run: runOptimize,
};
