// How the CLI imports a table file (issue 35): `--header yes|no|auto` and `--encoding …` on
// `dowser import` and on every command whose --db may be a CSV, TSV or JSON file; the lines that
// say how each file was read and how to change it; and, at a terminal, the question when Dowser
// cannot tell whether a first row names the columns (elsewhere the row is read as data, and said).

import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { visible } from '../core/format/visible';
import {
  ENCODING_CHOICES,
  ENCODING_NAMES,
  encodingSentence,
  HEADER_CHOICES,
  headerSentence,
  otherEncoding,
  type EncodingChoice,
  type HeaderChoice,
} from '../core/import/imported-file';
import { PREVIEW_BYTES, previewTableFile, type TablePreview } from '../core/import/table-preview';
import type { OpenReport } from '../core/types';
import { processTerminal, type Terminal } from './ask/person';
import { UsageError, type CliIo } from './command';

export const TABLE_FILE_FLAGS = { header: { type: 'string' }, encoding: { type: 'string' } } as const;

/** The two flags' help, their text starting at `column` as the command's other options do. */
export function tableFileUsage(column = 19): string {
  return [
    ['--header <h>', "a CSV or TSV file's first row: yes (it names the columns), no (it is data)"],
    ['', 'or auto (the default: decided by comparing it with the rows below; when'],
    ['', 'that cannot tell, asked at a terminal, else read as data)'],
    ['--encoding <e>', "a table file's text: utf-8, utf-16, utf-16le, utf-16be or windows-1252"],
    ['', '(default: decided from its bytes, and said)'],
  ]
    .map(([flag, text]) => `  ${flag}`.padEnd(column) + text)
    .join('\n');
}

export interface TableFileChoice {
  header: HeaderChoice;
  encoding: EncodingChoice;
}

/** `--header` and `--encoding` checked; absent ones are `auto`. */
export function parseTableFileFlags(v: { header?: string | boolean; encoding?: string | boolean }): TableFileChoice {
  const header = typeof v.header === 'string' ? v.header.toLowerCase() : 'auto';
  const encoding = typeof v.encoding === 'string' ? v.encoding.toLowerCase() : 'auto';
  const h = HEADER_CHOICES.find((c) => c === header);
  if (!h) throw new UsageError(`--header must be yes, no or auto, not "${visible(String(v.header))}"`);
  const e = encoding === 'auto' ? 'auto' : ENCODING_CHOICES.find((c) => c === encoding);
  if (!e)
    throw new UsageError(
      `--encoding must be ${ENCODING_CHOICES.slice(0, -1).join(', ')} or ${ENCODING_CHOICES.at(-1)}, not "${visible(String(v.encoding))}"`,
    );
  return { header: h, encoding: e };
}

/** The preview of a file's first bytes (what `--type` and the terminal's question look at). */
export function previewFile(path: string, choice: Partial<TableFileChoice> = {}): TablePreview {
  const fd = openSync(path, 'r');
  try {
    const buffer = new Uint8Array(PREVIEW_BYTES);
    const n = readSync(fd, buffer, 0, PREVIEW_BYTES, 0);
    return previewTableFile(basename(path), buffer.subarray(0, n), n < PREVIEW_BYTES, choice);
  } finally {
    closeSync(fd);
  }
}

/** The person at this process's terminal, when stdin and stderr are one; else nobody. */
export function terminalOf(io: CliIo): Terminal | null {
  return io.stderr === process.stderr && process.stdin.isTTY && process.stderr.isTTY ? processTerminal() : null;
}

/**
 * `auto`, unless a terminal can answer for a file whose first row Dowser cannot judge: then the
 * person's y/N (Enter: data, so nothing of the row becomes a name unasked).
 */
export async function headerFor(
  path: string,
  choice: TableFileChoice,
  terminal: Terminal | null,
): Promise<HeaderChoice> {
  if (choice.header !== 'auto' || !terminal) return choice.header;
  let evidence: TablePreview['headerEvidence'];
  try {
    evidence = previewFile(path, choice).headerEvidence;
  } catch {
    return 'auto'; // the import says what is wrong with the file
  }
  if (evidence?.verdict !== 'unsure') return 'auto';
  const typed = await terminal.ask(
    `${visible(basename(path))}: Dowser cannot tell whether the first row names the columns (${evidence.reason}). Does it? [y/N] `,
  );
  return /^y(es)?$/i.test(typed.trim()) ? 'yes' : 'no';
}

/**
 * What an import says on stderr, one line each: per file how its first row and its text were
 * read, with the flag that changes it; then what it became, and the rows that did not fit.
 */
export function importLines(report: OpenReport): string[] {
  const lines: string[] = [];
  for (const f of report.imports ?? []) {
    const h = f.header;
    if (h)
      lines.push(
        `note: ${f.file}: ${headerSentence(h, f.columns, `as --header ${h.choice} says`)}; ${h.taken ? '--header no if it is data' : '--header yes if it names the columns'}`,
      );
    const other = otherEncoding(f.encoding);
    lines.push(
      `${f.encoding.replaced ? 'warning' : 'note'}: ${f.file}: ${encodingSentence(f.encoding, 'as --encoding says')}${other ? `; --encoding ${other} if the file is ${ENCODING_NAMES[other]}` : ''}`,
    );
  }
  for (const issue of report.issues)
    if (issue.code !== 'import_header' && issue.code !== 'import_encoding')
      lines.push(`${issue.level === 'warning' ? 'warning' : 'note'}: ${issue.message}`);
  return lines.map(visible);
}
