// Edit distances, for typos in values (the value index's typo scan and re-ranking), misspelt
// values in the linker, and close-name suggestions (normalize.ts). One implementation: optimal
// string alignment, where "pairs" -> "paris" is one edit (plain Levenshtein says two).

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
