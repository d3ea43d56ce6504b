// Optimal string alignment distance: Levenshtein plus adjacent transpositions as one edit, so
// "Pairs" is one edit from "Paris" (plain Levenshtein says two).

export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n];
}

/** The names closest to `wanted` (case-insensitive), best first, within a distance that scales with length. */
export function closestNames(wanted: string, names: Iterable<string>, limit = 3): string[] {
  const w = wanted.toLowerCase();
  const max = Math.max(1, Math.floor(w.length / 3));
  const scored: Array<[string, number]> = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    let d = editDistance(w, lower, max);
    // A name that contains the wanted one (or the reverse) is a good suggestion too: `name` -> `first_name`.
    if (d > max && (lower.includes(w) || w.includes(lower)) && Math.min(w.length, lower.length) >= 3) d = max;
    if (d <= max) scored.push([name, d]);
  }
  return [...new Set(scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).map(([n]) => n))].slice(0, limit);
}
