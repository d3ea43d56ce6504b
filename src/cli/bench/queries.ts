// SearchValue query sets, seeded, made from values the index holds: the value itself (exact),
// the value with one typo (typo) and the first 60% of it (prefix). Each query knows the
// (table, column, value) it was made from, which is what a hit has to return.

import type { ColumnRef, DistinctColumnValues } from '../../core/retrieval/types';
import { normalizeValue } from '../../core/retrieval/value-text';
import { seeded } from './random';

export interface ValueTarget extends ColumnRef {
  value: string;
}

export interface ValueQuery {
  query: string;
  target: ValueTarget;
}

export interface QuerySets {
  exact: ValueQuery[];
  typo: ValueQuery[];
  prefix: ValueQuery[];
}

/** Share of the value's characters a prefix query keeps (it may end inside a word). */
export const PREFIX_SHARE = 0.6;
const MIN_TYPO_WORD = 4;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * One edit inside one word of 4+ letters: a substitution, insertion, deletion or a swap of two
 * neighbouring letters, chosen at random. Null when the value has no such word or every attempt
 * leaves the value unchanged after normalisation (a swap of equal letters, "é" for "e").
 */
export function withTypo(value: string, rnd: () => number): string | null {
  const words = [...value.matchAll(new RegExp(`\\p{L}{${MIN_TYPO_WORD},}`, 'gu'))];
  if (words.length === 0) return null;
  const norm = normalizeValue(value);
  for (let attempt = 0; attempt < 10; attempt++) {
    const m = words[Math.floor(rnd() * words.length)];
    const w = m[0];
    const i = Math.floor(rnd() * w.length);
    const letter = LETTERS[Math.floor(rnd() * LETTERS.length)];
    let typo: string;
    switch (Math.floor(rnd() * 4)) {
      case 0:
        typo = w.slice(0, i) + letter + w.slice(i + 1);
        break;
      case 1:
        typo = w.slice(0, i) + letter + w.slice(i);
        break;
      case 2:
        typo = w.slice(0, i) + w.slice(i + 1);
        break;
      default: {
        const j = Math.min(i, w.length - 2);
        typo = w.slice(0, j) + w[j + 1] + w[j] + w.slice(j + 2);
      }
    }
    const query = value.slice(0, m.index) + typo + value.slice(m.index! + w.length);
    if (normalizeValue(query) !== norm) return query;
  }
  return null;
}

export function prefixOf(value: string): string {
  return value.slice(0, Math.ceil(value.length * PREFIX_SHARE));
}

/**
 * `n` queries of each kind. Targets are drawn uniformly over the indexed (table, column, value)
 * triples, without repeats; a target that cannot take a typo is replaced by the next draw.
 */
export function makeQuerySets(columns: readonly DistinctColumnValues[], n: number, seed: number): QuerySets {
  const rnd = seeded(seed);
  const offsets: number[] = [];
  let total = 0;
  for (const c of columns) {
    offsets.push(total);
    total += c.values.length;
  }
  const targetAt = (k: number): ValueTarget => {
    let lo = 0;
    let hi = columns.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (offsets[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    const c = columns[lo];
    return { table: c.table, column: c.column, value: c.values[k - offsets[lo]] };
  };
  const draw = (used: Set<number>): ValueTarget | null => {
    if (used.size >= total) return null;
    for (;;) {
      const k = Math.floor(rnd() * total);
      if (!used.has(k)) {
        used.add(k);
        return targetAt(k);
      }
    }
  };

  const sets: QuerySets = { exact: [], typo: [], prefix: [] };
  const used = new Set<number>();
  for (let i = 0; i < n; i++) {
    const t = draw(used);
    if (!t) break;
    sets.exact.push({ query: t.value, target: t });
    sets.prefix.push({ query: prefixOf(t.value), target: t });
  }
  // Typo targets are drawn afresh: values without a long enough word are skipped, not kept.
  const typoUsed = new Set<number>();
  while (sets.typo.length < n) {
    const t = draw(typoUsed);
    if (!t) break;
    const query = withTypo(t.value, rnd);
    if (query !== null) sets.typo.push({ query, target: t });
  }
  return sets;
}
