// A query saved as a .sql file, with a comment header saying where it came from.

import { normalizeLineEnds } from '../sql/line-ends';
import { tokenize } from '../sql/tokens';

export interface SqlFileMeta {
  database: string;
  question?: string;
  /** The plan's sub-questions, numbered in the header. */
  subQuestions?: string[];
  /** ISO-8601 timestamp, supplied by the caller so core stays free of clocks. */
  exportedAt: string;
}

/**
 * One header line's text, made safe inside a `-- ` comment: any line break (CR, LF, and the
 * Unicode separators some editors honour) or other control character becomes a space, so a
 * question such as "x\nDROP TABLE t" cannot end the comment and turn into SQL.
 */
export function commentText(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/** The SQL ended by `;` so the file runs as is; after a trailing `--` comment, on its own line. */
function terminated(sql: string): string {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'space');
  const code = tokens.filter((t) => t.kind !== 'comment');
  if (code.length === 0 || code[code.length - 1].text === ';') return sql;
  const last = tokens[tokens.length - 1];
  return last.kind === 'comment' && last.text.startsWith('--') ? `${sql}\n;` : `${sql};`;
}

export function sqlFileText(sql: string, meta: SqlFileMeta): string {
  const header = [
    'Exported from Dowser',
    `Database: ${meta.database}`,
    ...(meta.question != null && meta.question.trim() !== '' ? [`Question: ${meta.question}`] : []),
    ...(meta.subQuestions ?? []).map((q, i) => `Sub-question ${i + 1}: ${q}`),
    `Exported at: ${meta.exportedAt}`,
  ];
  return (
    header.map((line) => `-- ${commentText(line)}`).join('\n') +
    '\n\n' +
    terminated(normalizeLineEnds(sql).trim()) +
    '\n'
  );
}
