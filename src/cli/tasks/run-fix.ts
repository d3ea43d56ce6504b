// The work of `dowser fix` (commands/fix.ts), loaded only when the command runs.

import { fixSql, type FixAttempt } from '../../core/tasks/fix-sql';
import { visible } from '../../core/format/visible';
import { EXIT_ERROR, EXIT_OK, parsePositiveInt, type CliIo } from '../command';
import { toJson } from '../json';
import { parseTaskArgs } from './task-options';
import { withTaskContext } from './task-context';
import { diffText, indent, rowsText, sqlText } from './task-render';

function attemptText(label: string, a: FixAttempt, io: CliIo): string {
  const lines = [`${label}:`, a.sql ? sqlText(a.sql) : '  (no SQL)'];
  if (a.outcome) lines.push(rowsText(a.outcome, io, 5));
  else lines.push(indent(visible(a.observation)));
  if (a.problem && a.problem !== a.outcome?.summary) lines.push(`  → ${visible(a.problem)}`);
  return lines.join('\n');
}

export async function runFix(args: string[], rawIo: CliIo, usage: string): Promise<number> {
  const flags = { question: { type: 'string' }, note: { type: 'string' }, rounds: { type: 'string' } } as const;
  const parsed = parseTaskArgs(args, flags, 'SQL');
  if (!parsed) {
    rawIo.stdout.write(usage);
    return EXIT_OK;
  }
  const { options: o, values } = parsed;
  const rounds = parsePositiveInt(values.rounds as string | undefined, '--rounds', 2);
  return withTaskContext(o, rawIo, async ({ io, model, schema, tools, signal, privacy }) => {
    const report = await fixSql({
      sql: o.text,
      question: values.question as string | undefined,
      note: values.note as string | undefined,
      schema,
      model,
      privacy,
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
