// Human output shared by the task commands: SQL, a line diff, rows and query plans side by side.
// Text from the model or the file goes through `visible`, so it cannot drive the terminal.

import { diffLines } from 'diff';
import type { SqlOutcome } from '../../core/agent/sql-outcome';
import { formatTextTable } from '../../core/format/text-table';
import { cutToWidth, padEndWidth, visible, visibleKeepingLines } from '../../core/format/visible';
import type { CliIo } from '../command';

export const indent = (text: string, prefix = '  ') =>
  text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');

export function sqlText(sql: string): string {
  return indent(visibleKeepingLines(sql.trim()));
}

/** `- old` / `+ new` lines, unchanged lines with two spaces. */
export function diffText(before: string, after: string): string {
  return diffLines(before.trim() + '\n', after.trim() + '\n')
    .flatMap((p) =>
      p.value
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `${p.added ? '+ ' : p.removed ? '- ' : '  '}${visible(l)}`),
    )
    .join('\n');
}

export function rowsText(outcome: SqlOutcome, io: CliIo, maxRows = 10): string {
  if (!outcome.ok) return indent(visible(outcome.summary));
  const rows = outcome.rows.slice(0, maxRows);
  const total = outcome.totalRows;
  const table = formatTextTable({ columns: outcome.columns, rows }, { maxWidth: io.columns ?? 120 }).trimEnd();
  const more = total === null || total > rows.length ? `\n  (${total ?? 'more than ' + rows.length} rows in all)` : '';
  return indent(table) + more;
}

/** Two lists of lines in two columns of equal width. */
export function sideBySide(left: string[], right: string[], titles: [string, string], width = 58): string {
  const lines = [`${padEndWidth(titles[0], width)} | ${titles[1]}`, `${'-'.repeat(width)}-+-${'-'.repeat(width)}`];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const a = cutToWidth(visible(left[i] ?? ''), width);
    lines.push(`${padEndWidth(a, width)} | ${cutToWidth(visible(right[i] ?? ''), width)}`);
  }
  return lines.join('\n');
}
