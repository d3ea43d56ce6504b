// Terms from identifiers and questions, normalised so they meet: `CustomerID`, `customer_id`
// and "customers" all give `custom` + `id`. Used by the column index and the structure linker.
// The words themselves (folding, splitting) are text/normalize.ts's; this adds stemming,
// stopwords and the expansions of schema conventions and question cues.

import { stemmer } from 'stemmer';
import { dropPossessives, splitIdentifier, words } from '../text/normalize';

/**
 * Conventions of schemas that no rule below derives from the word ("no" is not in "number").
 * Other abbreviations ("qty", "cntry_cd", "dob", "mpg") are matched by the general rules of
 * abbreviations.ts against the question's own words.
 */
const CONVENTIONS = new Map([
  ['id', 'id identifier'],
  ['no', 'number'],
  ['txn', 'transaction'],
]);

/**
 * Question words that ask for a kind of column rather than name one (English grammar, not any
 * schema's vocabulary): "when" asks for a date, "where" for a place, "how many" for a count.
 */
const QUESTION_CUES = new Map([
  ['when', 'date time year'],
  ['where', 'location place address city country'],
  ['many', 'count number'],
  ['who', 'name person'],
]);

const STOPWORDS = new Set(
  (
    'a an the of in on at to for from by with and or not no is are was were be been being do does did ' +
    'what which whom whose how that this these those there their them they it its as all any each every ' +
    'show list give find return display tell me please also than then more most less least such only ' +
    'have has had will would can could should may might must per into about over under between both either ' +
    'other others same different'
  ).split(' '),
);

/** Stemmed words for matching. */
export function stemAll(ws: string[]): string[] {
  return ws.map((w) => stemmer(w));
}

/** Terms of a schema identifier: its parts, their conventional expansions, stemmed. */
export function identifierTerms(name: string): string[] {
  const parts = splitIdentifier(name);
  const expanded = parts.flatMap((p) => [p, ...(CONVENTIONS.get(p)?.split(' ') ?? [])]);
  return stemAll(expanded);
}

/** Content words of a question (stopwords removed), lower case, unstemmed; possessives dropped. */
export function questionWords(question: string): string[] {
  return words(dropPossessives(question)).filter((w) => !STOPWORDS.has(w));
}

/** Terms of a question: words without stopwords, plus question cues and conventions, stemmed. */
export function questionTerms(question: string): string[] {
  const ws = questionWords(question);
  const expanded = ws.flatMap((w) => [
    w,
    ...(QUESTION_CUES.get(w)?.split(' ') ?? []),
    ...(CONVENTIONS.get(w)?.split(' ') ?? []),
  ]);
  return stemAll(expanded);
}

export function isStopword(w: string): boolean {
  return STOPWORDS.has(w);
}
