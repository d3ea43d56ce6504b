// `dowser explain`: any SQL explained in plain words (what it returns, from which tables, with
// which filters and groupings), after running it read-only (core/tasks/explain-sql.ts).

import { explainSql } from '../../core/tasks/explain-sql';
import { visible, visibleKeepingLines } from '../../core/format/visible';
import { EXIT_ERROR, EXIT_OK, type CliCommand, type CliIo } from '../command';
import { toJson } from '../json';
import { MODEL_USAGE, parseTaskArgs } from '../tasks/task-options';
import { withTaskContext } from '../tasks/task-context';
import { rowsText } from '../tasks/task-render';

const usage = `Usage: dowser explain --db <file> --provider openai|anthropic|scripted [--model <name>]
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

async function runExplain(args: string[], rawIo: CliIo): Promise<number> {
  const parsed = parseTaskArgs(args, { question: { type: 'string' } }, 'SQL');
  if (!parsed) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { options: o, values } = parsed;
  return withTaskContext(o, rawIo, async ({ io, model, schema, tools, signal }) => {
    const r = await explainSql({
      sql: o.text,
      question: values.question as string | undefined,
      schema,
      model,
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

export const explainCommand: CliCommand = {
  name: 'explain',
  summary: 'explain any SQL in plain words: what it returns, tables, filters, groupings',
  usage,
  run: runExplain,
};
