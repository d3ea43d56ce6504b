// BM25 over the words of many values, with compressed posting lists.
//
// Build: documents arrive in id order, each as its list of term ids; every (term, document)
// pair is appended at once to the term's posting list as a variable-length delta, in a single
// byte pool where each list is a chain of slices that double in size (Lucene's
// ByteBlockPool idea). So nothing is held per pair while building, and a list costs about a
// byte per posting for common words. `finish()` copies each chain into one contiguous array.
//
// Query: the score is MiniSearch's BM25+ with its defaults (k 1.2, b 0.7, d 0.5) and its rule
// that a document's score is multiplied by the number of query words it matches. Scores gather
// in a small open-addressing table sized to the posting budget of a query, not in arrays as
// long as the index, so a query costs its postings and nothing per indexed value.
// docs/decisions/010-value-index.md compares this with MiniSearch.

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Query words tracked for the "matched words" multiplier (a bit per word). */
const MAX_QUERY_WORDS = 30;
const FIRST_SLICE = 12;
const MAX_SLICE = 1 << 16;

export interface ScoredTerm {
  term: number;
  /** 1 for the query's own word, less for completions and spelling neighbours. */
  weight: number;
  /** Position of the query word this term stands for (variants share it). */
  source: number;
}

export interface ScoredDoc {
  doc: number;
  score: number;
}

function growU32(a: Uint32Array, min: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}

export class PostingsBuilder {
  private pool = new Uint8Array(1 << 16);
  private used = 0;
  /** Per term: where its chain starts, where the next byte goes, where its slice's pointer is. */
  private head = new Uint32Array(1024);
  private write = new Uint32Array(1024);
  private end = new Uint32Array(1024);
  private size = new Uint32Array(1024);
  private lastDoc = new Uint32Array(1024);
  private bytes = new Uint32Array(1024);
  private df = new Uint32Array(1024);
  /** Per term: its position in the current document's scratch lists, valid when `markDoc` is the document. */
  private markAt = new Uint32Array(1024);
  private markDoc = new Int32Array(1024).fill(-1);
  private docLengths = new Uint16Array(1024);
  private docs = 0;
  private terms = 0;
  private totalLength = 0;
  // Per-document scratch: distinct term ids and their counts.
  private docTerms = new Int32Array(256);
  private docTf = new Int32Array(256);

  get documentCount(): number {
    return this.docs;
  }

  /** Adds the next document (id = number of documents added before) from its first `count` terms. */
  addDocument(terms: ArrayLike<number>, count = terms.length): number {
    const doc = this.docs++;
    if (doc >= this.docLengths.length) {
      const grown = new Uint16Array(this.docLengths.length * 2);
      grown.set(this.docLengths);
      this.docLengths = grown;
    }
    if (count > this.docTerms.length) {
      this.docTerms = new Int32Array(count * 2);
      this.docTf = new Int32Array(count * 2);
    }
    const dt = this.docTerms;
    const tf = this.docTf;
    let distinct = 0;
    for (let k = 0; k < count; k++) {
      const t = terms[k];
      if (t >= this.terms) this.ensureTerm(t);
      if (this.markDoc[t] === doc) tf[this.markAt[t]]++;
      else {
        this.markDoc[t] = doc;
        this.markAt[t] = distinct;
        dt[distinct] = t;
        tf[distinct++] = 1;
      }
    }
    this.docLengths[doc] = Math.min(65535, distinct);
    this.totalLength += distinct;
    for (let i = 0; i < distinct; i++) this.append(dt[i], doc, tf[i]);
    return doc;
  }

  private ensureTerm(term: number): void {
    if (term < this.terms) return;
    if (term >= this.head.length) {
      const n = Math.max(term + 1, this.head.length * 2);
      this.head = growU32(this.head, n);
      this.write = growU32(this.write, n);
      this.end = growU32(this.end, n);
      this.size = growU32(this.size, n);
      this.lastDoc = growU32(this.lastDoc, n);
      this.bytes = growU32(this.bytes, n);
      this.df = growU32(this.df, n);
      this.markAt = growU32(this.markAt, n);
      const marks = new Int32Array(this.markAt.length).fill(-1);
      marks.set(this.markDoc);
      this.markDoc = marks;
    }
    for (let t = this.terms; t <= term; t++) {
      this.head[t] = 0xffffffff;
      this.df[t] = 0;
      this.bytes[t] = 0;
    }
    this.terms = term + 1;
  }

  private newSlice(size: number): number {
    if (this.used + size > this.pool.length) {
      const grown = new Uint8Array(Math.max(this.pool.length * 2, this.used + size));
      grown.set(this.pool.subarray(0, this.used));
      this.pool = grown;
    }
    const at = this.used;
    this.used += size;
    return at;
  }

  private putByte(term: number, byte: number): void {
    if (this.write[term] === this.end[term]) {
      // Slice full: the next one is twice as big; its address goes in the last 4 bytes.
      const size = Math.min(MAX_SLICE, this.size[term] * 2);
      const next = this.newSlice(size);
      const p = this.end[term];
      this.pool[p] = next & 255;
      this.pool[p + 1] = (next >>> 8) & 255;
      this.pool[p + 2] = (next >>> 16) & 255;
      this.pool[p + 3] = next >>> 24;
      this.size[term] = size;
      this.write[term] = next;
      this.end[term] = next + size - 4;
    }
    this.pool[this.write[term]++] = byte;
    this.bytes[term]++;
  }

  private putVarint(term: number, value: number): void {
    while (value >= 128) {
      this.putByte(term, (value & 127) | 128);
      value = Math.floor(value / 128);
    }
    this.putByte(term, value);
  }

  private append(term: number, doc: number, tf: number): void {
    if (this.head[term] === 0xffffffff) {
      const at = this.newSlice(FIRST_SLICE);
      this.head[term] = at;
      this.write[term] = at;
      this.end[term] = at + FIRST_SLICE - 4;
      this.size[term] = FIRST_SLICE;
      this.lastDoc[term] = 0;
    }
    const delta = this.df[term] === 0 ? doc : doc - this.lastDoc[term];
    // The low bit says whether a term frequency above 1 follows.
    const code = delta * 2 + (tf > 1 ? 1 : 0);
    const w = this.write[term];
    if (code < 128 && w !== this.end[term]) {
      // The common case written out: one byte, room left in the slice.
      this.pool[w] = code;
      this.write[term] = w + 1;
      this.bytes[term]++;
    } else this.putVarint(term, code);
    if (tf > 1) this.putVarint(term, Math.min(tf, 255));
    this.lastDoc[term] = doc;
    this.df[term]++;
  }

  /** The finished, contiguous lists. The builder is spent afterwards. */
  finish(termCount: number): Postings {
    this.ensureTerm(Math.max(0, termCount - 1));
    const offsets = new Uint32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t] + (t < this.terms ? this.bytes[t] : 0);
    const data = new Uint8Array(offsets[termCount]);
    for (let t = 0; t < Math.min(termCount, this.terms); t++) {
      let left = this.bytes[t];
      if (left === 0) continue;
      let out = offsets[t];
      let at = this.head[t];
      let size = FIRST_SLICE;
      while (left > 0) {
        const n = Math.min(left, size - 4);
        data.set(this.pool.subarray(at, at + n), out);
        out += n;
        left -= n;
        if (left > 0) {
          const p = at + size - 4;
          at = this.pool[p] | (this.pool[p + 1] << 8) | (this.pool[p + 2] << 16) | (this.pool[p + 3] * 16777216);
          size = Math.min(MAX_SLICE, size * 2);
        }
      }
    }
    const df = new Uint32Array(termCount);
    df.set(this.df.subarray(0, Math.min(termCount, this.terms)));
    const postings = new Postings(
      data,
      offsets,
      df,
      this.docLengths.slice(0, this.docs),
      this.totalLength / Math.max(1, this.docs),
    );
    this.pool = new Uint8Array(0);
    return postings;
  }
}

/** Scores of one query, in an open-addressing table reused between queries. */
class Accumulator {
  private keys = new Int32Array(1 << 12).fill(-1);
  private scores = new Float64Array(1 << 12);
  private bits = new Uint32Array(1 << 12);
  private used: number[] = [];

  reset(expected: number): void {
    for (const s of this.used) this.keys[s] = -1;
    this.used.length = 0;
    let size = this.keys.length;
    while (size < expected * 2) size *= 2;
    if (size !== this.keys.length) {
      this.keys = new Int32Array(size).fill(-1);
      this.scores = new Float64Array(size);
      this.bits = new Uint32Array(size);
    }
  }

  add(doc: number, score: number, bit: number): void {
    const mask = this.keys.length - 1;
    let s = (Math.imul(doc, 0x9e3779b1) >>> 0) & mask;
    while (this.keys[s] !== -1 && this.keys[s] !== doc) s = (s + 1) & mask;
    if (this.keys[s] === -1) {
      this.keys[s] = doc;
      this.scores[s] = 0;
      this.bits[s] = 0;
      this.used.push(s);
    }
    this.scores[s] += score;
    this.bits[s] |= bit;
  }

  /** The score of a document added since the last reset (0 when none was). */
  get(doc: number): number {
    const mask = this.keys.length - 1;
    for (let s = (Math.imul(doc, 0x9e3779b1) >>> 0) & mask; this.keys[s] !== -1; s = (s + 1) & mask)
      if (this.keys[s] === doc) return this.scores[s] * bitCount(this.bits[s]);
    return 0;
  }

  /** The `limit` best documents, best first. */
  top(limit: number): ScoredDoc[] {
    const best: ScoredDoc[] = [];
    for (const s of this.used) {
      const score = this.scores[s] * bitCount(this.bits[s]);
      if (best.length === limit && score <= best[limit - 1].score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1].score < score) at--;
      best.splice(at, 0, { doc: this.keys[s], score });
      if (best.length > limit) best.pop();
    }
    return best;
  }
}

/** Finished postings as plain arrays: what a tokenizing worker hands back (typed arrays transferred). */
export interface PostingsData {
  data: Uint8Array;
  offsets: Uint32Array;
  docFreq: Uint32Array;
  docLength: Uint16Array;
  avgDocLength: number;
}

export class Postings {
  private readonly acc = new Accumulator();

  static fromData(d: PostingsData): Postings {
    return new Postings(d.data, d.offsets, d.docFreq, d.docLength, d.avgDocLength);
  }

  /** The arrays, for sending to another thread (shared, not copied). */
  toData(): PostingsData {
    const { data, offsets, docFreq, docLength, avgDocLength } = this;
    return { data, offsets, docFreq, docLength, avgDocLength };
  }

  constructor(
    private readonly data: Uint8Array,
    private readonly offsets: Uint32Array,
    /** Documents holding each term. */
    readonly docFreq: Uint32Array,
    private readonly docLength: Uint16Array,
    private readonly avgDocLength: number,
  ) {}

  get documentCount(): number {
    return this.docLength.length;
  }

  frequency(term: number | undefined): number {
    return term === undefined || term >= this.docFreq.length ? 0 : this.docFreq[term];
  }

  /** Calls `visit(doc)` for each document holding `term`, in id order. */
  forEachDoc(term: number, visit: (doc: number) => boolean | void): void {
    if (term >= this.docFreq.length) return;
    let p = this.offsets[term];
    const end = this.offsets[term + 1];
    let doc = 0;
    while (p < end) {
      let v = 0;
      let mul = 1;
      let b: number;
      do {
        b = this.data[p++];
        v += (b & 127) * mul;
        mul *= 128;
      } while (b >= 128);
      if (v % 2 === 1) {
        // skip the term frequency
        while (this.data[p++] >= 128);
      }
      doc += Math.floor(v / 2);
      if (visit(doc) === false) return;
    }
  }

  /**
   * The `limit` best documents for the terms (OR), best first. `accept` filters documents (scope)
   * before they are scored. Work is one step per posting of the given terms.
   */
  search(
    terms: readonly ScoredTerm[],
    limit: number,
    accept?: (doc: number) => boolean,
    /**
     * Also return each term's best documents on that term alone, this many per term: one
     * spelling of a word ("parcel" for "pacel") is not crowded out by its other neighbours'
     * rarer, shorter documents ("Pakel", "Panel"), so re-ranking gets to see it.
     */
    perTerm = 0,
  ): ScoredDoc[] {
    const n = this.documentCount;
    let expected = 0;
    for (const t of terms) expected += this.frequency(t.term);
    this.acc.reset(expected);
    const bestDocs = new Int32Array(perTerm);
    const bestScores = new Float64Array(perTerm);
    const extra: number[] = [];
    for (const t of terms) {
      if (t.term >= this.docFreq.length) continue;
      const df = this.docFreq[t.term];
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const bit = 1 << Math.min(t.source, MAX_QUERY_WORDS);
      let p = this.offsets[t.term];
      const end = this.offsets[t.term + 1];
      let doc = 0;
      let kept = 0;
      while (p < end) {
        let v = 0;
        let mul = 1;
        let b: number;
        do {
          b = this.data[p++];
          v += (b & 127) * mul;
          mul *= 128;
        } while (b >= 128);
        let tf = 1;
        if (v % 2 === 1) {
          tf = 0;
          mul = 1;
          do {
            b = this.data[p++];
            tf += (b & 127) * mul;
            mul *= 128;
          } while (b >= 128);
        }
        doc += Math.floor(v / 2);
        if (accept && !accept(doc)) continue;
        const norm = 1 - BM25.b + (BM25.b * this.docLength[doc]) / this.avgDocLength;
        const score = t.weight * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * norm));
        this.acc.add(doc, score, bit);
        if (perTerm > 0 && (kept < perTerm || score > bestScores[kept - 1])) {
          // Insertion into the term's short list, best first (ties keep the earlier document).
          let at = kept < perTerm ? kept++ : kept - 1;
          while (at > 0 && bestScores[at - 1] < score) {
            bestScores[at] = bestScores[at - 1];
            bestDocs[at] = bestDocs[at - 1];
            at--;
          }
          bestScores[at] = score;
          bestDocs[at] = doc;
        }
      }
      for (let i = 0; i < kept; i++) extra.push(bestDocs[i]);
    }
    const top = this.acc.top(limit);
    if (extra.length === 0) return top;
    const seen = new Set(top.map((d) => d.doc));
    for (const doc of extra)
      if (!seen.has(doc)) {
        seen.add(doc);
        top.push({ doc, score: this.acc.get(doc) });
      }
    return top;
  }

  memoryBytes(): number {
    return this.data.byteLength + this.offsets.byteLength + this.docFreq.byteLength + this.docLength.byteLength;
  }
}

function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
