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

import { foldCase } from '../text/normalize';

/** Buckets of code tokens (a power of two). */
const CODE_BUCKETS = 1 << 20;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;
const KEY_SEED = 0x9747b28c;
const KEY_PRIME = 0x27d4eb2d;

/** What an ASCII character is to the tokenizer: 0 separator, 1 letter or digit, 2 capital. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = 1;
for (let c = 97; c <= 122; c++) ASCII_CLASS[c] = 1;
for (let c = 65; c <= 90; c++) ASCII_CLASS[c] = 2;

/** FNV-1a over the UTF-16 code units of text[start, end). */
export function hashRange(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** A second, independent 32-bit hash step: with hashRange and the length it keys a word. */
const keyStep = (g: number, c: number) => Math.imul(((g << 5) | (g >>> 27)) ^ c, KEY_PRIME);

/** A vocabulary as plain arrays: what a tokenizing worker hands back (typed arrays transferred). */
export interface VocabularyData {
  words: string[];
  hashes: Uint32Array;
  keys: Uint32Array;
  lengths: Uint16Array;
  slots: Int32Array;
  bucketTerm: Int32Array;
}

export class Vocabulary {
  /** Word of each term id; '' for a code bucket. */
  readonly words: string[];
  /**
   * Term ids of the text last tokenized, in order (`tokenize` returns how many): read them
   * before the next call, which reuses the array.
   */
  terms = new Int32Array(256);
  private hashes: Uint32Array;
  private keys: Uint32Array;
  private lengths: Uint16Array;
  private slots: Int32Array;
  private readonly bucketTerm: Int32Array;
  /** hashRange of the normalised form (words joined by one space) of the text last tokenized. */
  lastNormHash = 0;

  get size(): number {
    return this.words.length;
  }

  /** The vocabulary's arrays, for sending to another thread (the arrays are shared, not copied). */
  toData(): VocabularyData {
    const { words, hashes, keys, lengths, slots, bucketTerm } = this;
    return { words, hashes, keys, lengths, slots, bucketTerm };
  }

  /** A new, empty vocabulary, or one made from `toData()`'s arrays (taken over, not copied). */
  constructor(data?: VocabularyData) {
    this.words = data?.words ?? [];
    this.hashes = data?.hashes ?? new Uint32Array(1024);
    this.keys = data?.keys ?? new Uint32Array(1024);
    this.lengths = data?.lengths ?? new Uint16Array(1024);
    this.slots = data?.slots ?? new Int32Array(2048).fill(-1);
    this.bucketTerm = data?.bucketTerm ?? new Int32Array(CODE_BUCKETS).fill(-1);
  }

  isWord(term: number): boolean {
    return this.words[term] !== '';
  }

  /** Term id of a word of letters (any case), or undefined. */
  wordId(word: string): number | undefined {
    let h = FNV_OFFSET;
    let g = KEY_SEED;
    for (let i = 0; i < word.length; i++) {
      let c = word.charCodeAt(i);
      if (c >= 65 && c <= 90) c += 32;
      h = Math.imul(h ^ c, FNV_PRIME);
      g = keyStep(g, c);
    }
    const t = this.find(h >>> 0, g >>> 0, word.length);
    return t < 0 ? undefined : t;
  }

  /** Term id of any token (word or code), or undefined. */
  termId(token: string): number | undefined {
    if (/\d/.test(token)) {
      const t = this.bucketTerm[hashRange(token, 0, token.length) & (CODE_BUCKETS - 1)];
      return t < 0 ? undefined : t;
    }
    return this.wordId(token);
  }

  /**
   * Puts the term ids of the tokens of `text` (any case, accents, punctuation) in `terms`,
   * adding unknown ones, and returns how many there are.
   */
  tokenize(text: string, start = 0, end = text.length): number {
    // ASCII text (most values) is lowered character by character, not copied first; the
    // first character beyond ASCII sends the whole text through Unicode folding instead.
    const n = this.scan(text, start, end, false);
    if (n >= 0) return n;
    const folded = foldCase(start === 0 && end === text.length ? text : text.slice(start, end));
    return this.scan(folded, 0, folded.length, true);
  }

  /**
   * One pass over text[from, to); -1 when it meets a character beyond ASCII and `unicode` is
   * false.
   */
  private scan(text: string, from: number, to: number, unicode: boolean): number {
    let count = 0;
    let start = -1;
    let digit = false;
    let h = 0;
    let g = 0;
    let nh = FNV_OFFSET;
    let terms = this.terms;
    const n = to;
    for (let i = from; i <= n; i++) {
      let c = i < n ? text.charCodeAt(i) : 32;
      let inWord: boolean;
      if (c < 128) {
        const k = ASCII_CLASS[c];
        if (k === 2) c += 32;
        inWord = k !== 0;
      } else if (!unicode) return -1;
      // Surrogate halves belong to letters of other planes; the rest asks Unicode.
      else inWord = (c >= 0xd800 && c <= 0xdfff) || WORD_CHAR.test(text[i]);
      if (inWord) {
        if (start < 0) {
          start = i;
          digit = false;
          h = FNV_OFFSET;
          g = KEY_SEED;
          if (count > 0) nh = Math.imul(nh ^ 32, FNV_PRIME);
        }
        if (c <= 57 && c >= 48) digit = true;
        h = Math.imul(h ^ c, FNV_PRIME);
        g = keyStep(g, c);
        nh = Math.imul(nh ^ c, FNV_PRIME);
      } else if (start >= 0) {
        if (count === terms.length) {
          const grown = new Int32Array(terms.length * 2);
          grown.set(terms);
          this.terms = terms = grown;
        }
        terms[count++] = digit ? this.bucket(h >>> 0) : this.intern(text, start, i, h >>> 0, g >>> 0);
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

  /**
   * The word whose two hashes and length these are. Words are told apart by 64 bits of hash
   * and their length, not compared letter by letter (that second pass over every token was a
   * third of the tokenizer's time); two words of one length colliding on both hashes is
   * vanishingly unlikely (about n^2 / 2^65 for n words), and would only merge two words' postings.
   */
  private find(hash: number, key: number, length: number): number {
    const mask = this.slots.length - 1;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const t = this.slots[s];
      if (t < 0) return -1;
      if (this.hashes[t] === hash && this.keys[t] === key && this.lengths[t] === length) return t;
    }
  }

  private intern(text: string, start: number, end: number, hash: number, key: number): number {
    const length = Math.min(end - start, 65535);
    const found = this.find(hash, key, length);
    if (found >= 0) return found;
    const t = this.push(text.slice(start, end).toLowerCase(), hash);
    this.keys[t] = key;
    this.lengths[t] = length;
    this.place(t);
    return t;
  }

  private push(word: string, hash: number): number {
    const t = this.words.length;
    this.words.push(word);
    if (t >= this.hashes.length) {
      const grow = <A extends Uint32Array | Uint16Array>(a: A): A => {
        const b = new (a.constructor as new (n: number) => A)(a.length * 2);
        b.set(a);
        return b;
      };
      this.hashes = grow(this.hashes);
      this.keys = grow(this.keys);
      this.lengths = grow(this.lengths);
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
    return (
      this.hashes.byteLength +
      this.keys.byteLength +
      this.lengths.byteLength +
      this.slots.byteLength +
      this.bucketTerm.byteLength +
      this.terms.byteLength +
      chars +
      this.words.length * 24
    );
  }
}
