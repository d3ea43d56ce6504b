// Typos as people make them: one or two edits (a wrong, extra or missing letter, or two
// neighbouring letters swapped) anywhere in a word, the first letter included.

import { osaDistance } from '../../core/text/edit-distance';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One random edit of `w` (which keeps at least one letter). */
export function oneEdit(w: string, rnd: () => number): string {
  const i = Math.floor(rnd() * w.length);
  const letter = LETTERS[Math.floor(rnd() * LETTERS.length)];
  switch (Math.floor(rnd() * 4)) {
    case 0:
      return w.slice(0, i) + letter + w.slice(i + 1);
    case 1:
      return w.slice(0, i) + letter + w.slice(i);
    case 2:
      return w.length > 1 ? w.slice(0, i) + w.slice(i + 1) : w + letter;
    default: {
      if (w.length < 2) return w + letter;
      const j = Math.min(i, w.length - 2);
      return w.slice(0, j) + w[j + 1] + w[j] + w.slice(j + 2);
    }
  }
}

/**
 * `value` with `edits` edits (1 or 2) inside one word of at least `minWord` letters, so that the
 * word is exactly that many edits (optimal string alignment) from the original, case aside.
 * Null when the value has no such word or no attempt gives the exact distance.
 */
export function withTypos(
  value: string,
  edits: 1 | 2,
  rnd: () => number,
  minWord = edits === 1 ? 4 : 8,
): string | null {
  const words = [...value.matchAll(new RegExp(`\\p{L}{${minWord},}`, 'gu'))];
  if (words.length === 0) return null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const m = words[Math.floor(rnd() * words.length)];
    const original = m[0];
    let typo = original;
    for (let e = 0; e < edits; e++) typo = oneEdit(typo, rnd);
    if (osaDistance(typo.toLowerCase(), original.toLowerCase()) !== edits) continue;
    return value.slice(0, m.index) + typo + value.slice(m.index! + original.length);
  }
  return null;
}
