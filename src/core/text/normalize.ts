// The one normalisation of text, so that everything comparing words compares the same ones
// (issue 27): accent and case folding, words of free text and of identifiers, and close-name
// suggestions. The value index, the column index, the linker and the privacy gate's "matches
// only" level all go through here; the gate lets a value out when each of its words is a word
// of the question, which is only safe and useful if "word" means what retrieval means by it.
// The value index keeps snapshots of words cut this way (toolbox-snapshot.ts): a change to
// `foldCase` or `words` changes what a kept snapshot holds, so it bumps SNAPSHOT_FORMAT.

import { osaDistance } from './edit-distance';

const NON_ASCII = /[\u0080-\uffff]/;
const MARKS = /\p{M}+/gu;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

// Letters NFKD does not decompose into a base letter plus a mark.
const UNDECOMPOSED: Record<string, string> = {
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ı: 'i',
  ħ: 'h',
};
const UNDECOMPOSED_RE = new RegExp(`[${Object.keys(UNDECOMPOSED).join('')}]`, 'g');

/**
 * Lower case with accents removed: "Café" -> "cafe", "Straße" -> "strasse", "ﬁ" -> "fi". ASCII
 * text (most values) skips the Unicode work. NFKD rather than NFD so that compatibility forms
 * (ligatures, full-width letters) meet their plain spelling. Lower-cased again after NFKD: "™"
 * decomposes to "TM", and upper case left in a folded word made `words` cut "Acme™" differently
 * alone ("acme") and beside an accented word ("acmeTM").
 */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(UNDECOMPOSED_RE, (c) => UNDECOMPOSED[c])
    .toLowerCase();
}

/**
 * The folded words of free text (a question, a value, a description): split on anything that is
 * not a letter or a digit in any script. "Café de l'Ouest" -> cafe, de, l, ouest. CJK runs stay
 * one word (there are no spaces to cut at); emoji and punctuation are separators.
 */
export function words(text: string): string[] {
  const folded = foldCase(text);
  const parts = folded.split(NON_ASCII.test(folded) ? SEPARATORS : ASCII_SEPARATORS);
  // split leaves an empty string at either end when the text starts or ends with a separator
  if (parts.length > 0 && parts[0] === '') parts.shift();
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** "Kyle's" -> "Kyle": a possessive names its owner, and "s" is no word of the question. */
export function dropPossessives(text: string): string {
  return text.replace(/(\p{L})['’]s\b/giu, '$1');
}

/**
 * The words of a schema identifier: split on case changes, letter-digit boundaries and
 * underscores, then folded as `words` folds, so `orderDate2` -> order, date, 2 and `Année` meets
 * the question word "annee".
 */
export function splitIdentifier(name: string): string[] {
  return words(
    name
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
      .replace(/(\p{L})(\p{N})/gu, '$1 $2')
      .replace(/(\p{N})(\p{L})/gu, '$1 $2'),
  );
}

/** A span of text that the linker treats as one word, with its place in the text. */
export interface WordSpan {
  text: string;
  start: number;
  end: number;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const APOSTROPHE = /['’]/;

/**
 * Whether a character belongs to a word as `words` cuts them: a letter, a digit, a mark (folded
 * away, so it joins its neighbours: "naïve" typed with a combining diaeresis is one word), or a
 * symbol that folds to letters ("™" -> "tm").
 */
function isWordChar(c: string): boolean {
  return LETTER_OR_DIGIT.test(c) || MARK.test(c) || (NON_ASCII.test(c) && LETTER_OR_DIGIT.test(foldCase(c)));
}

/**
 * The words of a question where they stand, for linking spans back to the text. One apostrophe
 * followed by a letter stays inside ("O'Brien", "Kyle's"): the linker looks such a word up
 * whole. Each span holds exactly the words `words` finds there, so the spans' words, in order,
 * are `words(text)`; the tests pin this, and the privacy gate relies on it.
 */
export function wordSpans(text: string): WordSpan[] {
  const out: WordSpan[] = [];
  const chars = [...text];
  let offset = 0;
  let i = 0;
  while (i < chars.length) {
    if (!isWordChar(chars[i])) {
      offset += chars[i++].length;
      continue;
    }
    const start = offset;
    let apostrophe = false;
    while (i < chars.length) {
      const c = chars[i];
      if (isWordChar(c)) {
        offset += c.length;
        i++;
      } else if (!apostrophe && APOSTROPHE.test(c) && i + 1 < chars.length && LETTER.test(chars[i + 1])) {
        apostrophe = true;
        offset += c.length;
        i++;
      } else break;
    }
    const span = text.slice(start, offset);
    // A lone mark or variation selector (after an emoji) folds to nothing: no word there.
    if (words(span).length > 0) out.push({ text: span, start, end: offset });
  }
  return out;
}

/**
 * Text in UTF-16 code-unit order: the same on every machine (localeCompare is not), which keeps
 * ties in suggestions, statistics and join paths in one order everywhere.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const byFoldedName = (a: string, b: string): number => compareText(foldCase(a), foldCase(b)) || compareText(a, b);

/**
 * The names closest to `wanted`, best first, for "did you mean" in tool errors and join-path
 * endpoints: within a distance that grows with the length (a third of it, at least one edit), or
 * containing it (`name` -> `first_name`, ranked after closer spellings). Case and accents aside.
 */
export function closestNames(wanted: string, names: Iterable<string>, limit = 3): string[] {
  const w = foldCase(wanted);
  const max = Math.max(1, Math.floor(w.length / 3));
  const scored = new Map<string, number>();
  for (const name of names) {
    const n = foldCase(name);
    let d = osaDistance(w, n, max);
    if (d > max && Math.min(w.length, n.length) >= 3 && (n.includes(w) || w.includes(n))) d = max;
    const had = scored.get(name);
    if (d <= max && (had === undefined || d < had)) scored.set(name, d);
  }
  return [...scored]
    .sort((a, b) => a[1] - b[1] || byFoldedName(a[0], b[0]))
    .slice(0, limit)
    .map(([name]) => name);
}
