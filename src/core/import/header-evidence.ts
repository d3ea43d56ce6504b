// Whether a table file's first row names its columns, decided on evidence (issue 35, item 1): a
// first row of distinct words used to be taken as a header, so a contact list without one sent
// its first person to the model as column names and lost the row. Here each column compares its
// first cell with the cells below it and votes, as Python's csv.Sniffer.has_header does; the sum
// decides, and a tie is "unsure" (the caller then reads the row as data and says so). No list of
// header words: only the shapes of the values themselves, so nothing is tuned to any dataset.

import type { HeaderVerdict } from './imported-file';

export type { HeaderVerdict } from './imported-file';

export interface HeaderEvidence {
  verdict: HeaderVerdict;
  /** A short reason for a person ("its values look like the rows below"). */
  reason: string;
}

/** Rows below the first that are compared with it (csv.Sniffer reads about 20). */
export const EVIDENCE_ROWS = 100;

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?%?$/;
const GROUPED = /^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/;
const DATE =
  /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const TIME = /^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$/;
/** A name as programs write one: snake_case, camelCase, "id", "…_id", "ID". */
const IDENTIFIER = /^([a-z][a-z0-9]*(_[a-z0-9]+)+|[a-z]+([A-Z][a-z0-9]*)+|id|ID|Id|.+_id|.+_ID)$/;

/** A value that is a number or a date: what a typed column holds. */
function isTyped(v: string): boolean {
  return NUMBER.test(v) || GROUPED.test(v) || DATE.test(v) || TIME.test(v);
}

/** A run of letters as its case: "Ada" Aa, "ada" a, "ADA" A, "firstName" aA, "McKay" AaA; other scripts L. */
function wordShape(word: string): string {
  if (!/[\p{Lu}\p{Ll}]/u.test(word)) return 'L';
  const lower = /^\p{Ll}+$/u.test(word);
  const upper = /^\p{Lu}+$/u.test(word);
  if (lower) return 'a';
  if (upper) return 'A';
  if (/^\p{Lu}\p{Ll}+$/u.test(word)) return 'Aa';
  return /^\p{Lu}/u.test(word) ? 'AaA' : 'aA';
}

/**
 * The character classes of `v`, runs collapsed: "Quillfeather Moravec" → "Aa Aa",
 * "kestrelmoss@example.com" → "a@a.a", "first_name" → "a_a", "B-12" → "A-9", "12.5" → "9.9".
 */
export function shapeOf(v: string): string {
  return v.replace(/[\p{L}\p{M}]+|\p{N}+|\s+/gu, (run) =>
    /^\p{N}/u.test(run) ? '9' : /^\s/u.test(run) ? ' ' : wordShape(run),
  );
}

type Vote = 'typed-below' | 'unlike-below' | 'identifier' | 'like-below' | 'repeated' | 'empty-or-typed';

/** One column's votes: positive for a header, negative for data. */
function columnVotes(first: string, below: readonly string[]): Array<[Vote, number]> {
  if (below.length === 0) return [];
  if (first === '' || isTyped(first)) return [['empty-or-typed', first !== '' && below.every(isTyped) ? -2 : -1]];
  const votes: Array<[Vote, number]> = [];
  if (below.every(isTyped)) votes.push(['typed-below', 2]);
  if (below.includes(first)) votes.push(['repeated', -2]);
  const shapes = new Map<string, number>();
  for (const v of below) {
    const shape = shapeOf(v);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  const own = shapes.get(shapeOf(first)) ?? 0;
  const commonest = Math.max(...shapes.values());
  // A column whose values mostly share a shape says something when the first cell has another.
  if (own === 0 && commonest / below.length >= 0.5) votes.push(['unlike-below', 1]);
  else if (own / below.length >= 0.2) votes.push(['like-below', -1]);
  if (own === 0 && IDENTIFIER.test(first)) votes.push(['identifier', 1]);
  return votes;
}

const count = (n: number, of: number) => `${n} of ${of} column${of === 1 ? '' : 's'}`;

/**
 * Compares the first row with the rows below it (at most EVIDENCE_ROWS are looked at), column by
 * column, and sums the votes: a column whose later values are numbers or dates while its first
 * cell is not, a first cell whose shape none of a shape-consistent column's later cells has, or an
 * identifier-like name above other shapes speak for a header; a first cell shaped like the cells
 * below it, one that occurs again in its column, an empty or numeric one speak for data.
 */
export function headerEvidence(first: readonly string[], below: ReadonlyArray<readonly string[]>): HeaderEvidence {
  const rows = below.slice(0, EVIDENCE_ROWS);
  if (rows.length === 0) return { verdict: 'unsure', reason: 'the file has one row: nothing to compare it with' };
  let score = 0;
  let forHeader = 0;
  let forData = 0;
  const kinds = new Set<Vote>();
  for (let c = 0; c < first.length; c++) {
    const later: string[] = [];
    for (const r of rows) {
      const v = (r[c] ?? '').trim();
      if (v !== '') later.push(v);
    }
    const votes = columnVotes(first[c].trim(), later);
    const sum = votes.reduce((n, [, w]) => n + w, 0);
    score += sum;
    if (sum > 0) forHeader++;
    if (sum < 0) forData++;
    for (const [kind, w] of votes) if (Math.sign(w) === Math.sign(sum)) kinds.add(kind);
  }
  const columns = first.length;
  if (score > 0)
    return {
      verdict: 'header',
      reason: kinds.has('typed-below')
        ? `columns below it hold numbers or dates where it holds words (${count(forHeader, columns)})`
        : `its values are shaped unlike the rows below (${count(forHeader, columns)})`,
    };
  if (score < 0)
    return {
      verdict: 'data',
      reason:
        kinds.has('empty-or-typed') && !kinds.has('like-below')
          ? 'it holds numbers or empty cells, as data does'
          : 'its values look like the rows below',
    };
  return forHeader + forData === 0
    ? { verdict: 'unsure', reason: 'its columns say nothing either way' }
    : {
        verdict: 'unsure',
        reason: `as much speaks for names as for data (${count(forHeader, columns)} against ${forData})`,
      };
}
