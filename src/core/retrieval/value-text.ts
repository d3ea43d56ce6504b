// How cell values and value queries are compared: as the folded words of text/normalize.ts
// (lower case, accents folded, split on anything that is not a letter or a digit in any script),
// joined by one space. The value index, its re-ranking and the LIKE fallback all go through these
// functions, so a value and a query typed differently (case, accents, punctuation) compare equal.

import { words } from '../text/normalize';

const NON_ASCII = /[\u0080-\uffff]/;
const HAS_DIGIT = /\d/;

const ASCII_SEPARATOR_RUNS = /[^a-z0-9]+/g;

/** Folded words joined by one space: the form values are compared and sorted in. */
export function normalizeValue(text: string): string {
  const lower = text.toLowerCase();
  // Fast path for ASCII text (most values): one replace, no array.
  if (!NON_ASCII.test(lower)) return lower.replace(ASCII_SEPARATOR_RUNS, ' ').trim();
  return words(text).join(' ');
}

/**
 * normalizeValue(value).startsWith(key) for a normalised key, without making the normalised
 * string: ASCII values are compared as they are read and most stop at their first letter.
 * The prefix check of the value index runs it on up to 20,000 values per search.
 */
export function startsWithNormalized(value: string, key: string): boolean {
  let k = 0;
  let started = false;
  let space = false;
  for (let i = 0; i < value.length; i++) {
    let c = value.charCodeAt(i);
    if (c >= 128) return normalizeValue(value).startsWith(key);
    if (c >= 65 && c <= 90) c += 32;
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      space = started;
      continue;
    }
    if (k === key.length) return true;
    if (space) {
      if (key.charCodeAt(k++) !== 32) return false;
      if (k === key.length) return true;
      space = false;
    }
    if (key.charCodeAt(k++) !== c) return false;
    started = true;
  }
  return k === key.length;
}

/** Letters and digits only, folded: "North Carolina", "north-carolina" and "NorthCarolina" meet. */
export function compactKey(text: string): string {
  return normalizeValue(text).replace(/ /g, '');
}

/** True when the text ends inside a word, so its last word may be the start of a longer one. */
export function endsInsideWord(text: string): boolean {
  return /[\p{L}\p{N}]$/u.test(text);
}

const DATE_LIKE =
  /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$|^\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/**
 * ISO dates, date-times and times ("2019-03-04", "2019-03-04 12:33:11", "12:33"): compared in
 * SQL by range, not looked up by spelling, so the value index leaves them out.
 */
export function isDateLike(v: string): boolean {
  const c = v.charCodeAt(0);
  return v.length >= 5 && v.length <= 35 && c >= 48 && c <= 57 && DATE_LIKE.test(v);
}

/**
 * `isDateLike` of UTF-8 bytes, matched byte by byte (every cell of a text column passes here, and
 * a date column has a million of them: no string is made). The same grammar as DATE_LIKE, which
 * the tests check it against. Written without closures: one made per call cost more than the
 * whole match (the build's read took twice as long).
 */
export function isDateLikeBytes(bytes: Uint8Array, start: number, length: number): boolean {
  const end = start + length;
  if (length < 5 || length > 35 || !twoDigits(bytes, start, end)) return false;
  let p: number;
  if (bytes[start + 2] === 58) {
    // dd:dd[:dd[.d+]]
    return twoDigits(bytes, start + 3, end) && seconds(bytes, start + 5, end) === end;
  }
  // dddd-dd-dd
  if (
    !twoDigits(bytes, start + 2, end) ||
    bytes[start + 4] !== 45 ||
    !twoDigits(bytes, start + 5, end) ||
    bytes[start + 7] !== 45 ||
    !twoDigits(bytes, start + 8, end)
  )
    return false;
  p = start + 10;
  // [ T]dd:dd[:dd[.d+]]
  if (p < end && (bytes[p] === 32 || bytes[p] === 84)) {
    if (!twoDigits(bytes, p + 1, end) || bytes[p + 3] !== 58 || !twoDigits(bytes, p + 4, end)) return false;
    p = seconds(bytes, p + 6, end);
    if (p < 0) return false;
  }
  // Z or [+-]dd[:]dd
  if (p < end && bytes[p] === 90) p++;
  else if (p < end && (bytes[p] === 43 || bytes[p] === 45)) {
    if (!twoDigits(bytes, p + 1, end)) return false;
    p += 3;
    if (p < end && bytes[p] === 58) p++;
    if (!twoDigits(bytes, p, end)) return false;
    p += 2;
  }
  return p === end;
}

function isDigitAt(bytes: Uint8Array, k: number, end: number): boolean {
  return k < end && bytes[k] >= 48 && bytes[k] <= 57;
}

function twoDigits(bytes: Uint8Array, k: number, end: number): boolean {
  return isDigitAt(bytes, k, end) && isDigitAt(bytes, k + 1, end);
}

/** After "hh:mm" at `p`: an optional ":ss" and ".fraction"; where they end, or -1 when malformed. */
function seconds(bytes: Uint8Array, p: number, end: number): number {
  if (p >= end || bytes[p] !== 58) return p;
  if (!twoDigits(bytes, p + 1, end)) return -1;
  p += 3;
  if (p >= end || bytes[p] !== 46) return p;
  if (!isDigitAt(bytes, p + 1, end)) return -1;
  p += 2;
  while (isDigitAt(bytes, p, end)) p++;
  return p;
}

export function hasDigit(token: string): boolean {
  return HAS_DIGIT.test(token);
}
