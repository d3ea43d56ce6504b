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

// A term's building state is one record of STRIDE numbers in one array (a cache line holds two),
// not one array per field: the rare words of long texts each cost one memory miss, not seven.
const HEAD = 0; // where its chain starts (NONE: no posting yet)
const WRITE = 1; // where its next byte goes
const END = 2; // where its slice's pointer to the next slice is
const SIZE = 3; // the current slice's size
const LAST = 4; // its last document
const BYTES = 5; // bytes written
const DF = 6; // documents holding it
const STRIDE = 8;
const NONE = 0xffffffff;

export class PostingsBuilder {
  private pool = new Uint8Array(1 << 16);
  private used = 0;
  private state = new Uint32Array(1024 * STRIDE);
  private docLengths = new Uint16Array(1024);
  private docs = 0;
  private terms = 0;
  private totalLength = 0;
  // Per-document scratch: distinct term ids, their counts, and a small hash table over them.
  private docTerms = new Int32Array(256);
  private docTf = new Int32Array(256);
  private docSlots = new Int32Array(512).fill(-1);

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
      this.docSlots = new Int32Array(count * 4).fill(-1);
    }
    const dt = this.docTerms;
    const tf = this.docTf;
    let distinct = 0;
    if (count <= 8)
      // A short value: its few terms are compared with each other.
      for (let k = 0; k < count; k++) {
        const t = terms[k];
        let i = 0;
        while (i < distinct && dt[i] !== t) i++;
        if (i < distinct) tf[i]++;
        else {
          dt[distinct] = t;
          tf[distinct++] = 1;
        }
      }
    else {
      // A longer text: a hash table in the scratch (cleared after), not a mark per term.
      const slots = this.docSlots;
      const mask = (1 << (32 - Math.clz32(count * 2 - 1))) - 1;
      for (let k = 0; k < count; k++) {
        const t = terms[k];
        let s = Math.imul(t, 0x9e3779b1) >>> Math.clz32(mask);
        for (;;) {
          const i = slots[s];
          if (i < 0) {
            slots[s] = distinct;
            dt[distinct] = t;
            tf[distinct++] = 1;
            break;
          }
          if (dt[i] === t) {
            tf[i]++;
            break;
          }
          s = (s + 1) & mask;
        }
      }
      slots.fill(-1, 0, mask + 1);
    }
    this.docLengths[doc] = Math.min(65535, distinct);
    this.totalLength += distinct;
    for (let i = 0; i < distinct; i++) {
      const t = dt[i];
      if (t >= this.terms) this.ensureTerm(t);
      this.append(t, doc, tf[i]);
    }
    return doc;
  }

  private ensureTerm(term: number): void {
    if (term < this.terms) return;
    if ((term + 1) * STRIDE > this.state.length) {
      const grown = new Uint32Array(Math.max((term + 1) * STRIDE, this.state.length * 2));
      grown.set(this.state);
      this.state = grown;
    }
    for (let t = this.terms; t <= term; t++) {
      const r = t * STRIDE;
      this.state[r + HEAD] = NONE;
      this.state[r + DF] = 0;
      this.state[r + BYTES] = 0;
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

  private putByte(r: number, byte: number): void {
    const st = this.state;
    if (st[r + WRITE] === st[r + END]) {
      // Slice full: the next one is twice as big; its address goes in the last 4 bytes.
      const size = Math.min(MAX_SLICE, st[r + SIZE] * 2);
      const next = this.newSlice(size);
      const p = st[r + END];
      this.pool[p] = next & 255;
      this.pool[p + 1] = (next >>> 8) & 255;
      this.pool[p + 2] = (next >>> 16) & 255;
      this.pool[p + 3] = next >>> 24;
      st[r + SIZE] = size;
      st[r + WRITE] = next;
      st[r + END] = next + size - 4;
    }
    this.pool[st[r + WRITE]++] = byte;
    st[r + BYTES]++;
  }

  private putVarint(r: number, value: number): void {
    while (value >= 128) {
      this.putByte(r, (value & 127) | 128);
      value = Math.floor(value / 128);
    }
    this.putByte(r, value);
  }

  private append(term: number, doc: number, tf: number): void {
    const r = term * STRIDE;
    let st = this.state;
    if (st[r + HEAD] === NONE) {
      const at = this.newSlice(FIRST_SLICE);
      st = this.state;
      st[r + HEAD] = at;
      st[r + WRITE] = at;
      st[r + END] = at + FIRST_SLICE - 4;
      st[r + SIZE] = FIRST_SLICE;
      st[r + LAST] = 0;
    }
    const delta = st[r + DF] === 0 ? doc : doc - st[r + LAST];
    // The low bit says whether a term frequency above 1 follows.
    const code = delta * 2 + (tf > 1 ? 1 : 0);
    const w = st[r + WRITE];
    if (code < 128 && w !== st[r + END]) {
      // The common case written out: one byte, room left in the slice.
      this.pool[w] = code;
      st[r + WRITE] = w + 1;
      st[r + BYTES]++;
    } else this.putVarint(r, code);
    if (tf > 1) this.putVarint(r, Math.min(tf, 255));
    st[r + LAST] = doc;
    st[r + DF]++;
  }

  /** The finished, contiguous lists. The builder is spent afterwards. */
  finish(termCount: number): Postings {
    this.ensureTerm(Math.max(0, termCount - 1));
    const st = this.state;
    const offsets = new Uint32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) offsets[t + 1] = offsets[t] + (t < this.terms ? st[t * STRIDE + BYTES] : 0);
    const data = new Uint8Array(offsets[termCount]);
    for (let t = 0; t < Math.min(termCount, this.terms); t++) {
      let left = st[t * STRIDE + BYTES];
      if (left === 0) continue;
      let out = offsets[t];
      let at = st[t * STRIDE + HEAD];
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
    for (let t = 0; t < Math.min(termCount, this.terms); t++) df[t] = st[t * STRIDE + DF];
    const postings = new Postings(
      data,
      offsets,
      df,
      this.docLengths.slice(0, this.docs),
      this.totalLength / Math.max(1, this.docs),
    );
    this.pool = new Uint8Array(0);
    this.state = new Uint32Array(0);
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
