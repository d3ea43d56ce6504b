// The work of `dowser optimize` (commands/optimize.ts), loaded only when the command runs.

import { OPTIMIZE_MARGIN, optimizeSql } from '../../core/tasks/optimize-sql';
import { visible } from '../../core/format/visible';
import { EXIT_ERROR, EXIT_OK, parsePositiveInt, type CliIo } from '../command';
import { toJson } from '../json';
import { parseFraction, parseTaskArgs } from './task-options';
import { withTaskContext } from './task-context';
import { diffText, indent, sideBySide } from './task-render';

export async function runOptimize(args: string[], rawIo: CliIo, usage: string): Promise<number> {
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
    async ({ io, model, schema, exec, signal, privacy }) => {
      const r = await optimizeSql({ sql: o.text, schema, model, privacy, exec, signal, runs, margin });
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
