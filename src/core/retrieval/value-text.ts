// How cell values and value queries are normalised so they meet: lower case, accents folded
// ("Café" -> "cafe"), split on anything that is not a letter or a digit in any script. The value
// index, its re-ranking and the LIKE fallback all go through these functions, so a value and a
// query typed differently (case, accents, punctuation) compare equal.

const NON_ASCII = /[\u0080-\uffff]/;
const MARKS = /\p{M}+/gu;
const ASCII_SEPARATORS = /[^a-z0-9]+/;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const HAS_DIGIT = /\d/;

// Letters NFD does not decompose into a base letter plus a mark.
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

/** Lower case with accents removed. ASCII text (most values) skips the Unicode work. */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  return lower
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(UNDECOMPOSED_RE, (c) => UNDECOMPOSED[c]);
}

/** The words of a value or a query, folded: "Café de l'Ouest" -> cafe, de, l, ouest. */
export function valueTokens(text: string): string[] {
  const folded = foldCase(text);
  const parts = folded.split(NON_ASCII.test(folded) ? SEPARATORS : ASCII_SEPARATORS);
  // split leaves an empty string at either end when the text starts or ends with a separator
  if (parts.length > 0 && parts[0] === '') parts.shift();
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const ASCII_SEPARATOR_RUNS = /[^a-z0-9]+/g;

/** Folded words joined by one space: the form values are compared and sorted in. */
export function normalizeValue(text: string): string {
  const lower = text.toLowerCase();
  // Fast path for ASCII text (most values): one replace, no array.
  if (!NON_ASCII.test(lower)) return lower.replace(ASCII_SEPARATOR_RUNS, ' ').trim();
  return valueTokens(text).join(' ');
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

// Scratch rows reused across calls: the distance runs in the hot path of every search.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/**
 * Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one
 * substring): insertions, deletions, substitutions and transpositions of two adjacent letters
 * each cost 1, so "pairs" -> "paris" is 1, where plain Levenshtein says 2. Stops early and
 * returns `max + 1` once the distance must exceed `max`.
 */
export function osaDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n === 0) return m;
  if (m === 0) return n;
  if (rowA.length <= m) {
    rowA = new Int32Array(m + 1);
    rowB = new Int32Array(m + 1);
    rowC = new Int32Array(m + 1);
  }
  let twoBack = rowA; // row i-2
  let prev = rowB; // row i-1
  let cur = rowC; // row i
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        d = Math.min(d, twoBack[j - 2] + 1);
      }
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    const spare = twoBack;
    twoBack = prev;
    prev = cur;
    cur = spare;
  }
  return prev[m];
}

/**
 * True when `a` and `b` are at most `max` (1 or 2) edits apart (optimal string alignment), in
 * a band of the matrix around its diagonal: cells farther than `max` from it cannot be within
 * `max`. About (2 max + 1) cells a row instead of a whole row: the typo scan runs it often.
 */
export function withinEdits(a: string, b: string, max: number): boolean {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return false;
  if (rowA.length <= m + 1) {
    rowA = new Int32Array(m + 2);
    rowB = new Int32Array(m + 2);
    rowC = new Int32Array(m + 2);
  }
  const big = max + 1;
  let twoBack = rowA;
  let prev = rowB;
  let cur = rowC;
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : big;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    cur[0] = i <= max ? i : big;
    if (lo > 1) cur[lo - 1] = big;
    let rowMin = cur[0] < big && lo === 1 ? cur[0] : big;
    const ai = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = prev[j - 1] + (ai === bj ? 0 : 1);
      const up = j <= i - 1 + max ? prev[j] + 1 : big;
      const left = cur[j - 1] + 1;
      if (up < d) d = up;
      if (left < d) d = left;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && twoBack[j - 2] + 1 < d)
        d = twoBack[j - 2] + 1;
      cur[j] = d > big ? big : d;
      if (d < rowMin) rowMin = d;
    }
    if (hi < m) cur[hi + 1] = big;
    if (rowMin > max) return false;
    const spare = twoBack;
    twoBack = prev;
    prev = cur;
    cur = spare;
  }
  return prev[m] <= max;
}

/** 1 for equal strings, falling towards 0 with the edit distance relative to the longer one. */
export function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  // Past half the length the strings are unrelated: stop there (the result is then an upper bound).
  const d = osaDistance(a, b, Math.ceil(longest / 2));
  return Math.max(0, 1 - d / longest);
}
