// The words of the value index, and the tokenizer that turns values into word ids without
// making a string per word. Words are cut as normalizeValue cuts them (value-text.ts: folded,
// split on anything that is not a letter or a digit), so a query and a value meet.
//
// Two kinds of terms share one id space:
//   words   tokens of letters only: kept as strings (typo search, completions, idf);
//   codes   tokens with a digit ("0012345", "x210", "6r"): millions of them in code columns, so
//           they are not kept as strings; each falls into one of CODE_BUCKETS hash buckets, and
//           a bucket's postings hold the values of every code in it. The few extra candidates a
//           shared bucket brings are dropped by the ranking, which compares the actual words.

import { foldCase } from './value-text';

/** Buckets of code tokens (a power of two). */
const CODE_BUCKETS = 1 << 20;
const NON_ASCII = /[\u0080-\uffff]/;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** FNV-1a over the UTF-16 code units of text[start, end). */
export function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function isWordCode(c: number, text: string, i: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  // Surrogate halves belong to letters of other planes; the rest asks Unicode.
  return (c >= 0xd800 && c <= 0xdfff) || WORD_CHAR.test(text[i]);
}

/** text[start, start + word.length) equals `word` once ASCII capitals are lowered. */
function sameLower(text: string, start: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    let c = text.charCodeAt(start + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== word.charCodeAt(i)) return false;
  }
  return true;
}

export class Vocabulary {
  /** Word of each term id; '' for a code bucket. */
  readonly words: string[] = [];
  private hashes = new Uint32Array(1024);
  private slots = new Int32Array(2048).fill(-1);
  private readonly bucketTerm = new Int32Array(CODE_BUCKETS).fill(-1);
  /** hashRange of the normalised form (words joined by one space) of the text last tokenized. */
  lastNormHash = 0;

  get size(): number {
    return this.words.length;
  }

  isWord(term: number): boolean {
    return this.words[term] !== '';
  }

  /** Term id of a word of letters, or undefined. */
  wordId(word: string): number | undefined {
    const t = this.find(word, 0, word.length, hashRange(word, 0, word.length));
    return t < 0 ? undefined : t;
  }

  /** Term id of any token (word or code), or undefined. */
  termId(token: string): number | undefined {
    const h = hashRange(token, 0, token.length);
    if (/\d/.test(token)) {
      const t = this.bucketTerm[h & (CODE_BUCKETS - 1)];
      return t < 0 ? undefined : t;
    }
    const t = this.find(token, 0, token.length, h);
    return t < 0 ? undefined : t;
  }

  /**
   * Calls `visit(term)` for each token of `text` (any case, accents, punctuation), adding
   * unknown ones. Returns the number of tokens.
   */
  tokenize(text: string, visit: (term: number) => void): number {
    // ASCII text (most values) is lower-cased here, character by character, not copied first.
    const folded = NON_ASCII.test(text) ? foldCase(text) : text;
    let count = 0;
    let start = -1;
    let digit = false;
    let h = 0;
    let nh = 0x811c9dc5;
    const n = folded.length;
    for (let i = 0; i <= n; i++) {
      let c = i < n ? folded.charCodeAt(i) : 32;
      if (c >= 65 && c <= 90) c += 32;
      if (i < n && isWordCode(c, folded, i)) {
        if (start < 0) {
          start = i;
          digit = false;
          h = 0x811c9dc5;
          if (count > 0) nh = Math.imul(nh ^ 32, 16777619);
        }
        if (c >= 48 && c <= 57) digit = true;
        h = Math.imul(h ^ c, 16777619);
        nh = Math.imul(nh ^ c, 16777619);
      } else if (start >= 0) {
        const hash = h >>> 0;
        visit(digit ? this.bucket(hash) : this.intern(folded, start, i, hash));
        count++;
        start = -1;
      }
    }
    this.lastNormHash = nh >>> 0;
    return count;
  }

  private bucket(hash: number): number {
    const b = hash & (CODE_BUCKETS - 1);
    let t = this.bucketTerm[b];
    if (t < 0) {
      t = this.push('', hash);
      this.bucketTerm[b] = t;
    }
    return t;
  }

  /** The word at text[start, end), compared in lower case (ASCII letters of `text` may be upper case). */
  private find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const t = this.slots[s];
      if (t < 0) return -1;
      if (this.hashes[t] === hash) {
        const w = this.words[t];
        if (w.length === len && sameLower(text, start, w)) return t;
      }
    }
  }

  private intern(text: string, start: number, end: number, hash: number): number {
    const found = this.find(text, start, end, hash);
    if (found >= 0) return found;
    const t = this.push(text.slice(start, end).toLowerCase(), hash);
    this.place(t);
    return t;
  }

  private push(word: string, hash: number): number {
    const t = this.words.length;
    this.words.push(word);
    if (t >= this.hashes.length) {
      const grown = new Uint32Array(this.hashes.length * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[t] = hash;
    return t;
  }

  /** Puts a new word in the open-addressing table, growing it at half load. */
  private place(t: number): void {
    if ((t + 1) * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2).fill(-1);
      for (let u = 0; u < t; u++) if (this.words[u] !== '') this.insertSlot(u);
    }
    this.insertSlot(t);
  }

  private insertSlot(t: number): void {
    const mask = this.slots.length - 1;
    let s = this.hashes[t] & mask;
    while (this.slots[s] >= 0) s = (s + 1) & mask;
    this.slots[s] = t;
  }

  /** Bytes held, roughly (strings at 2 bytes a character plus object overhead). */
  memoryBytes(): number {
    let chars = 0;
    for (const w of this.words) chars += w.length;
    return this.hashes.byteLength + this.slots.byteLength + this.bucketTerm.byteLength + chars + this.words.length * 24;
  }
}
