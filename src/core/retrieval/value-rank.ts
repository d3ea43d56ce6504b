// The re-ranking pass of SearchValue. BM25 finds candidates but ranks them poorly for this job:
// it prefers short values that share one rare word with the query, knows nothing about typos,
// and cannot tell "the query is this value" from "the query mentions this value". Each candidate
// is scored here on features that can:
//   exact     normalised equality (always first)
//   prefix    the value starts with the query (typing the start of a value)
//   qCover    how much of the query (IDF-weighted) the value's words match
//   vCover    how much of the value (IDF-weighted) the query's words match, which is what finds
//             "France" in "Which singers are from France?"
//   sim       edit-distance similarity of the whole strings (OSA: a swap is one edit)
//   freq      a small boost for values many rows hold
// Words meet when equal, when one starts the other (a cut-short last word; "Asian" and "Asia",
// "engineering" and "engineer") or when one edit apart. Function words ("are", "in", "the") of a
// query that has other words count little: otherwise a question's "are" finds the country code
// 'ARE' (measured on Spider: such codes pushed 'Africa' and 'Asia' out of the top 5).

import type { ValueHit } from './types';
import { similarity, withinEdits } from '../text/edit-distance';
import { endsInsideWord, normalizeValue } from './value-text';
import { MIN_TWO_EDIT_WORD, MIN_TYPO_WORD } from './value-typos';

/** A query as the ranking sees it. */
export interface RankQuery {
  /** Normalised query: folded words joined by single spaces. */
  norm: string;
  /** Distinct folded words, in query order. */
  words: string[];
  /** The query ends inside a word, so its last word may be cut short ("Spring" for "Springfield"). */
  lastIsPartial: boolean;
  /** Some word is not a function word: function words then count little. */
  hasContent: boolean;
}

// English function and question words. Kept short: only words that carry no value on their own.
const FUNCTION_WORDS = new Set(
  (
    'a an the of in on at to for from by with and or not no is are was were be been do does did ' +
    'what which who whom whose how when where why that this these those there their them they it its as all any each ' +
    'me my i you your we our he she his her than then more most less many much some such into about have has had ' +
    'show list give find return tell please can could would should will'
  ).split(' '),
);

export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word);
}

/** The query as the ranking reads it. */
export function toRankQuery(query: string): RankQuery {
  const norm = normalizeValue(query);
  const words = norm === '' ? [] : [...new Set(norm.split(' '))];
  return {
    norm,
    words,
    lastIsPartial: endsInsideWord(query.trimStart()),
    hasContent: words.some((w) => !FUNCTION_WORDS.has(w)),
  };
}

export interface RankContext {
  /** Inverse document frequency of a word among the indexed values (rare = high). */
  idf(word: string): number;
  /** Rows of the most frequent value, to scale the frequency boost. */
  maxRows: number;
}

export interface Ranked {
  score: number;
  match: Exclude<ValueHit['match'], 'text' | 'like' | 'contains'>;
  /**
   * A word of the query holding a digit (a code, a number) matched no word of the value at all:
   * "EV-FB940CCE" for "EV-DE228E80" shares only "ev". Such a value is no close spelling.
   */
  codeUnmatched?: true;
}

const EXACT_WORD = 1;
const PREFIX_WORD = 0.9;
const TYPO_WORD = 0.7;
const TYPO2_WORD = 0.5;
const STEM_WORD = 0.7;
/** Longest ending one word may have beyond the other and still meet it ("asia" + "n"). */
export const MAX_STEM_ENDING = 3;
/** Weight of a function word, relative to its IDF, when the query has other words. */
const FUNCTION_WORD_WEIGHT = 0.1;
/** Scale of the cover scores of a value that meets the query only through function words. */
const FUNCTION_ONLY = 0.2;

const WEIGHTS = { qCover: 0.35, vCover: 0.3, sim: 0.25, prefix: 0.15, freq: 0.05 };
/** Added to exact matches so they rank above everything else. */
export const EXACT_BONUS = 2;

/**
 * Credit for a query word against a value word: 1 equal, 0.9 cut short, 0.7 same stem or one
 * edit away (query words of 3+ letters), 0.5 two edits away (long words only).
 */
export function wordCredit(queryWord: string, valueWord: string, mayBePrefix: boolean): number {
  if (queryWord === valueWord) return EXACT_WORD;
  if (mayBePrefix && queryWord.length >= 2 && valueWord.startsWith(queryWord)) return PREFIX_WORD;
  if (sameStem(queryWord, valueWord)) return STEM_WORD;
  if (queryWord.length < MIN_TYPO_WORD || valueWord.length < MIN_TYPO_WORD - 1) return 0;
  const two = queryWord.length >= MIN_TWO_EDIT_WORD && valueWord.length >= MIN_TWO_EDIT_WORD - 2;
  if (withinEdits(queryWord, valueWord, 1)) return TYPO_WORD;
  return two && withinEdits(queryWord, valueWord, 2) ? TYPO2_WORD : 0;
}

/** One word is the other plus a short ending: asia/asian, engineer/engineering, europe/european. */
export function sameStem(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.length - short.length <= MAX_STEM_ENDING && long.startsWith(short);
}

/** Scores one candidate value (given in normalised form) against the query. */
export function rankValue(query: RankQuery, normValue: string, rows: number, ctx: RankContext): Ranked {
  const freq = ctx.maxRows > 1 ? Math.log1p(rows) / Math.log1p(ctx.maxRows) : 0;
  if (normValue === query.norm) return { score: EXACT_BONUS + 1 + WEIGHTS.freq * freq, match: 'exact' };

  const valueWords = normValue.length > 0 ? normValue.split(' ') : [];
  const valueCredit = new Float64Array(valueWords.length);
  const weight = (word: string, demote: boolean) =>
    ctx.idf(word) * (demote && FUNCTION_WORDS.has(word) ? FUNCTION_WORD_WEIGHT : 1);
  let queryMatched = 0;
  let queryTotal = 0;
  let contentMatched = false;
  let allQueryWordsFound = query.words.length > 0;
  let codeUnmatched = false;
  query.words.forEach((qw, i) => {
    const mayBePrefix = query.lastIsPartial && i === query.words.length - 1;
    let best = 0;
    for (let j = 0; j < valueWords.length; j++) {
      const credit = wordCredit(qw, valueWords[j], mayBePrefix);
      if (credit > best) best = credit;
      if (credit > valueCredit[j]) valueCredit[j] = credit;
    }
    const w = weight(qw, query.hasContent);
    queryMatched += w * best;
    queryTotal += w;
    if (best > 0 && !FUNCTION_WORDS.has(qw)) contentMatched = true;
    if (best < PREFIX_WORD) allQueryWordsFound = false;
    if (best === 0 && /\d/.test(qw)) codeUnmatched = true;
  });
  let valueMatched = 0;
  let valueTotal = 0;
  valueWords.forEach((vw, j) => {
    const w = weight(vw, true);
    valueMatched += w * valueCredit[j];
    valueTotal += w;
  });
  const functionOnly = query.hasContent && !contentMatched ? FUNCTION_ONLY : 1;
  const qCover = queryTotal > 0 ? (functionOnly * queryMatched) / queryTotal : 0;
  const vCover = valueTotal > 0 ? (functionOnly * valueMatched) / valueTotal : 0;
  const startsWithQuery = query.lastIsPartial
    ? normValue.startsWith(query.norm)
    : normValue.startsWith(query.norm + ' ');
  const score =
    WEIGHTS.qCover * qCover +
    WEIGHTS.vCover * vCover +
    WEIGHTS.sim * similarity(query.norm, normValue) +
    WEIGHTS.prefix * (startsWithQuery ? 1 : 0) +
    WEIGHTS.freq * freq;
  const match = startsWithQuery ? 'prefix' : allQueryWordsFound ? 'word' : 'fuzzy';
  return codeUnmatched && match === 'fuzzy' ? { score, match, codeUnmatched } : { score, match };
}
