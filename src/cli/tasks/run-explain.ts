// The work of `dowser explain` (commands/explain.ts), loaded only when the command runs.

import { explainSql } from '../../core/tasks/explain-sql';
import { visible, visibleKeepingLines } from '../../core/format/visible';
import { EXIT_ERROR, EXIT_OK, type CliIo } from '../command';
import { toJson } from '../json';
import { parseTaskArgs } from './task-options';
import { withTaskContext } from './task-context';
import { rowsText } from './task-render';

export async function runExplain(args: string[], rawIo: CliIo, usage: string): Promise<number> {
  const parsed = parseTaskArgs(args, { question: { type: 'string' } }, 'SQL');
  if (!parsed) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { options: o, values } = parsed;
  return withTaskContext(o, rawIo, async ({ io, model, schema, tools, signal, privacy }) => {
    const r = await explainSql({
      sql: o.text,
      question: values.question as string | undefined,
      schema,
      model,
      privacy,
      tools,
      signal,
    });
    if (o.json) io.stdout.write(toJson(r) + '\n');
    else {
      const s = r.structure;
      const list = (xs: string[]) => (xs.length ? xs.map(visible).join('; ') : '-');
      const out = [
        r.explanation ? visibleKeepingLines(r.explanation) : `no explanation: ${visible(r.note ?? '')}`,
        ...(r.verdict ? [`verdict: ${r.verdict}`] : []),
        [
          `tables: ${list(s.tables)}`,
          `filters: ${list(s.filters)}`,
          `grouped by: ${visible(s.groupBy ?? '-')}`,
          `ordered by: ${visible(s.orderBy ?? '-')}`,
          `limit: ${visible(s.limit ?? '-')}`,
        ].join('\n'),
      ];
      if (r.outcome) out.push(`result:\n${rowsText(r.outcome, io, 5)}`);
      io.stdout.write(out.join('\n\n') + '\n');
    }
    return r.explanation ? EXIT_OK : EXIT_ERROR;
  });
}
