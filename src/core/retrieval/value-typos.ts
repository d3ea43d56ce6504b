// Spelling neighbours of a query word among the indexed words: one edit away for words of 3+
// letters ("Rok" meets "Rock"), two edits for words of 7+ (insertions, deletions, substitutions
// and swaps of two neighbouring letters each count one: optimal string alignment, so "Pairs" is
// one edit from "Paris").
//
// How: a scan of the words of nearby lengths with a cheap filter first. Each word has a 32-bit
// mask of the letters it holds and one of the letters it holds twice or more; one edit changes
// the count of at most two letters by one, which flips at most one bit of the two masks for
// each, so a word within e edits differs in at most 2e bits of the two, and XOR plus a bit count
// rejects most words in a few nanoseconds (the letters-twice mask cuts the survivors of the
// first 10-100x on names built from common syllables). Only the survivors get the distance computed, bit-parallel
// from masks of the query word made once (osa-pattern.ts). Measured in
// docs/decisions/010-value-index.md against deletion keys (the previous way: one-edit only,
// (length + 1) map entries per word) and MiniSearch's fuzzy search.

import { OsaPattern } from './osa-pattern';
import { hasDigit } from './value-text';

/**
 * Words shorter than this are not typo-corrected (too many neighbours to mean anything); words
 * one letter shorter are indexed, as the neighbours of a deletion.
 */
export const MIN_TYPO_WORD = 3;
/** From this length on, two edits are allowed. */
export const MIN_TWO_EDIT_WORD = 7;
/** Longer words are left to the exact and prefix paths. */
const MAX_TYPO_WORD = 32;

/** Bit of a letter (a-z), or of one of six groups for any other character. */
const letterBit = (c: number) => 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));

function letterMask(word: string): number {
  let m = 0;
  for (let i = 0; i < word.length; i++) m |= letterBit(word.charCodeAt(i));
  return m >>> 0;
}

/** The letters (bits as letterMask's) a word holds twice or more. */
function repeatMask(word: string): number {
  let once = 0;
  let twice = 0;
  for (let i = 0; i < word.length; i++) {
    const b = letterBit(word.charCodeAt(i));
    if (once & b) twice |= b;
    once |= b;
  }
  return twice >>> 0;
}

function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export interface Neighbour {
  word: string;
  distance: number;
}

/** Edits allowed for a query word of this length. */
export function maxEdits(length: number): number {
  return length >= MIN_TWO_EDIT_WORD ? 2 : length >= MIN_TYPO_WORD ? 1 : 0;
}

export class TypoNeighbours {
  /** Word ids grouped by length: ids of length L are ids[start[L] .. start[L + 1]). */
  private readonly ids: Uint32Array;
  private readonly masks: Uint32Array;
  private readonly repeats: Uint32Array;
  private readonly start: Uint32Array;

  /** `words`: the vocabulary (term id -> word; '' for terms that are not words). */
  constructor(private readonly words: readonly string[]) {
    const counts = new Uint32Array(MAX_TYPO_WORD + 3);
    const eligible = (w: string) => w.length >= MIN_TYPO_WORD - 1 && w.length <= MAX_TYPO_WORD && !hasDigit(w);
    for (const w of words) if (eligible(w)) counts[w.length + 1]++;
    this.start = new Uint32Array(MAX_TYPO_WORD + 3);
    for (let l = 1; l < this.start.length; l++) this.start[l] = this.start[l - 1] + counts[l];
    const fill = this.start.slice();
    this.ids = new Uint32Array(this.start[this.start.length - 1]);
    this.masks = new Uint32Array(this.ids.length);
    this.repeats = new Uint32Array(this.ids.length);
    words.forEach((w, id) => {
      if (!eligible(w)) return;
      const at = fill[w.length]++;
      this.ids[at] = id;
      this.masks[at] = letterMask(w);
      this.repeats[at] = repeatMask(w);
    });
  }

  get size(): number {
    return this.ids.length;
  }

  /** Indexed words within the allowed edits of `word` (not `word` itself), closest first. */
  near(word: string, edits = maxEdits(word.length)): Neighbour[] {
    if (edits === 0 || word.length > MAX_TYPO_WORD + edits) return [];
    const mask = letterMask(word);
    const repeats = repeatMask(word);
    const limit = 2 * edits;
    const { masks } = this;
    const pattern = new OsaPattern(word);
    const found: Neighbour[] = [];
    const lo = Math.max(MIN_TYPO_WORD - 1, word.length - edits);
    const hi = Math.min(MAX_TYPO_WORD, word.length + edits);
    for (let len = lo; len <= hi; len++) {
      for (let p = this.start[len]; p < this.start[len + 1]; p++) {
        const differ = bitCount(masks[p] ^ mask);
        if (differ > limit || differ + bitCount(this.repeats[p] ^ repeats) > limit) continue;
        const candidate = this.words[this.ids[p]];
        if (candidate === word) continue;
        const distance = pattern.distance(candidate, edits);
        if (distance <= edits) found.push({ word: candidate, distance });
      }
    }
    return found.sort((a, b) => a.distance - b.distance);
  }

  memoryBytes(): number {
    return this.ids.byteLength + this.masks.byteLength + this.repeats.byteLength + this.start.byteLength;
  }
}
