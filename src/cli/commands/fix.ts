// `dowser fix`: SQL that fails, returns no rows, or that --note says is wrong goes to the model
// with the question, SQLite's error and the tools' repair detail; each proposal runs read-only;
// at most 2 rounds, then what was tried (core/tasks/fix-sql.ts).

import { fixSql, type FixAttempt } from '../../core/tasks/fix-sql';
import { visible } from '../../core/format/visible';
import { EXIT_ERROR, EXIT_OK, parsePositiveInt, type CliCommand, type CliIo } from '../command';
import { toJson } from '../json';
import { MODEL_USAGE, parseTaskArgs } from '../tasks/task-options';
import { withTaskContext } from '../tasks/task-context';
import { diffText, indent, rowsText, sqlText } from '../tasks/task-render';

const usage = `Usage: dowser fix --db <file> --provider openai|anthropic|scripted [--model <name>]
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

function attemptText(label: string, a: FixAttempt, io: CliIo): string {
  const lines = [`${label}:`, a.sql ? sqlText(a.sql) : '  (no SQL)'];
  if (a.outcome) lines.push(rowsText(a.outcome, io, 5));
  else lines.push(indent(visible(a.observation)));
  if (a.problem && a.problem !== a.outcome?.summary) lines.push(`  → ${visible(a.problem)}`);
  return lines.join('\n');
}

async function runFix(args: string[], rawIo: CliIo): Promise<number> {
  const flags = { question: { type: 'string' }, note: { type: 'string' }, rounds: { type: 'string' } } as const;
  const parsed = parseTaskArgs(args, flags, 'SQL');
  if (!parsed) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { options: o, values } = parsed;
  const rounds = parsePositiveInt(values.rounds as string | undefined, '--rounds', 2);
  return withTaskContext(o, rawIo, async ({ io, model, schema, tools, signal }) => {
    const report = await fixSql({
      sql: o.text,
      question: values.question as string | undefined,
      note: values.note as string | undefined,
      schema,
      model,
      tools,
      signal,
      maxRounds: rounds,
    });
    if (o.json) io.stdout.write(toJson(report) + '\n');
    else {
      const out = [attemptText('original', report.original, io)];
      report.attempts.forEach((a, i) => out.push(attemptText(`round ${i + 1}`, a, io)));
      if (report.fixed) out.push(`fixed (diff):\n${indent(diffText(report.original.sql, report.fixed.sql))}`);
      else out.push(visible(report.summary));
      io.stdout.write(out.join('\n\n') + '\n');
    }
    return report.status === 'fixed' || report.status === 'nothing_to_fix' ? EXIT_OK : EXIT_ERROR;
  });
}

export const fixCommand: CliCommand = {
  name: 'fix',
  summary: 'repair SQL that fails, returns no rows or is wrong by a note, in at most 2 rounds',
  usage,
  run: runFix,
};
