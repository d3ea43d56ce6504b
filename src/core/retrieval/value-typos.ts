// Spelling neighbours of a query word among the indexed words, for typo tolerance.
//
// Why deletion keys and not MiniSearch's fuzzy search: MiniSearch measures Levenshtein distance,
// where swapping two letters ("Pairs" for "Paris", "Jhon" for "John") costs two edits, so its
// default fuzziness (0.2: one edit up to 7 letters) misses most transpositions, and raising it
// to 0.34 costs p95 83 ms on 291k values (DESIGN.md section 5) because the radix-tree walk grows
// with the allowed distance. Here every indexed word is stored under itself and under each
// one-letter deletion of itself (SymSpell's idea). Two words one edit apart always share a key:
//   substitution  paris / pakis   -> both give "pais"
//   transposition paris / pairs   -> "pars" (delete i from paris, r from pairs)
//   insertion     paris / parris  -> "paris" is a deletion of "parris"
// so a query word needs only (its length + 1) map look-ups, and candidates are then confirmed
// with the optimal-string-alignment distance, which counts a transposition as one edit.
// Cost: about (word length + 1) keys per distinct word of 4+ letters. Words with digits (codes,
// years) are left out: a near spelling of a code is a different code.

import { hasDigit, osaDistance } from './value-text';

/** Words shorter than this are not typo-corrected (too many neighbours to mean anything). */
export const MIN_TYPO_WORD = 4;
/** Longer words are rare enough that the exact and prefix paths serve them. */
const MAX_TYPO_WORD = 24;

export class TypoNeighbours {
  /** key -> first entry; entries chain through `nextEntry`. */
  private readonly firstEntry = new Map<string, number>();
  private readonly entryWord: number[] = [];
  private readonly nextEntry: number[] = [];
  private readonly words: string[] = [];

  /** `words`: distinct indexed words. */
  constructor(words: Iterable<string>) {
    for (const word of words) {
      if (word.length < MIN_TYPO_WORD - 1 || word.length > MAX_TYPO_WORD || hasDigit(word)) continue;
      const id = this.words.length;
      this.words.push(word);
      this.addKey(word, id);
      // 3-letter words are reachable only by an inserted letter ("catt" -> "cat"): own key only.
      if (word.length >= MIN_TYPO_WORD) forEachDeletion(word, (key) => this.addKey(key, id));
    }
  }

  get size(): number {
    return this.words.length;
  }

  /** Indexed words exactly one edit (OSA) away from `word`, excluding `word` itself. */
  near(word: string): string[] {
    if (word.length < MIN_TYPO_WORD || word.length > MAX_TYPO_WORD + 1) return [];
    const seen = new Set<number>();
    const found: string[] = [];
    const visit = (key: string) => {
      for (let e = this.firstEntry.get(key); e !== undefined && e >= 0; e = this.nextEntry[e]) {
        const id = this.entryWord[e];
        if (seen.has(id)) continue;
        seen.add(id);
        const candidate = this.words[id];
        // Sharing a key allows two edits (different deleted positions); keep true neighbours.
        if (candidate !== word && osaDistance(word, candidate, 1) <= 1) found.push(candidate);
      }
    };
    visit(word);
    forEachDeletion(word, visit);
    return found;
  }

  private addKey(key: string, id: number): void {
    const entry = this.entryWord.length;
    this.entryWord.push(id);
    const head = this.firstEntry.get(key);
    if (head !== undefined && this.entryWord[head] === id) {
      // Same word under the same key twice (e.g. "book" minus either "o"): keep one entry.
      this.entryWord.pop();
      return;
    }
    this.nextEntry.push(head ?? -1);
    this.firstEntry.set(key, entry);
  }
}

/** Calls `visit` with each distinct string made by deleting one letter of `word`. */
function forEachDeletion(word: string, visit: (key: string) => void): void {
  for (let i = 0; i < word.length; i++) {
    // Deleting either letter of a doubled pair gives the same string: visit it once.
    if (i > 0 && word.charCodeAt(i) === word.charCodeAt(i - 1)) continue;
    visit(word.slice(0, i) + word.slice(i + 1));
  }
}
