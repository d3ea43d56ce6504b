// BM25 over the words of many short values, in flat typed arrays.
//
// Why not MiniSearch here (it serves SearchColumn, with a few thousand documents): measured on
// 300k generated values (measured while building; `dowser bench` now measures the index), MiniSearch spent ~7 us per value to build (84k values/s
// with everything else, under the 100k target), ~2 us and four allocations per matching posting
// at query time (a three-word query matching 6k values took 10-30 ms, with GC spikes; exact
// queries p95 53 ms), and about 1 KB of heap per value. Values are short (a few words), so the
// index is just a posting list per word; with flat arrays the build is a counting sort and a
// query touches each posting once, with no allocation. The score is MiniSearch's BM25+ with its
// defaults (k 1.2, b 0.7, d 0.5) and its rule that a document's score is multiplied by the
// number of query words it matches, so ranking stays what MiniSearch would give.

const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Query words tracked for the "matched words" multiplier (a bit per word). */
const MAX_QUERY_WORDS = 30;

export interface ScoredTerm {
  /** Word id (from `idOf`). */
  word: number;
  /** 1 for the query's own word, less for completions and spelling neighbours. */
  weight: number;
  /** Position of the query word this term stands for (variants share it). */
  source: number;
}

export class WordPostings {
  private readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  /** Values holding each word. */
  docFreq: Uint32Array = new Uint32Array(0);
  private offsets: Uint32Array = new Uint32Array(1);
  private postings: Uint32Array = new Uint32Array(0);
  private termFreq: Uint8Array = new Uint8Array(0);
  private docLength: Uint16Array = new Uint16Array(0);
  private avgDocLength = 1;
  // Per-query scratch, reused: scores and matched-word bits per document, touched documents.
  private scores: Float64Array = new Float64Array(0);
  private matched: Uint32Array = new Uint32Array(0);
  private touched: Uint32Array = new Uint32Array(0);

  /** `docs`: normalised values (words separated by single spaces; '' for none). */
  constructor(docs: readonly string[]) {
    const n = docs.length;
    // Pass 1: word ids per document (distinct within the document) with their counts.
    let docWords = new Uint32Array(Math.max(16, n * 4));
    let docTf = new Uint8Array(docWords.length);
    const docStart = new Uint32Array(n + 1);
    const df: number[] = [];
    let used = 0;
    let totalLength = 0;
    this.docLength = new Uint16Array(n);
    for (let d = 0; d < n; d++) {
      docStart[d] = used;
      const text = docs[d];
      if (text === '') continue;
      const words = text.split(' ');
      if (used + words.length > docWords.length) {
        const size = Math.max(docWords.length * 2, used + words.length);
        docWords = grow(docWords, size);
        docTf = growBytes(docTf, size);
      }
      const first = used;
      for (const w of words) {
        let id = this.ids.get(w);
        if (id === undefined) {
          id = this.words.length;
          this.ids.set(w, id);
          this.words.push(w);
          df.push(0);
        }
        let seen = -1;
        for (let p = first; p < used; p++)
          if (docWords[p] === id) {
            seen = p;
            break;
          }
        if (seen >= 0) {
          if (docTf[seen] < 255) docTf[seen]++;
        } else {
          docWords[used] = id;
          docTf[used] = 1;
          used++;
          df[id]++;
        }
      }
      this.docLength[d] = Math.min(65535, used - first);
      totalLength += used - first;
    }
    docStart[n] = used;
    this.avgDocLength = Math.max(1, totalLength / Math.max(1, n));

    // Pass 2: counting sort of (document, word) pairs into one posting list per word.
    const wordCount = this.words.length;
    this.docFreq = Uint32Array.from(df);
    this.offsets = new Uint32Array(wordCount + 1);
    for (let w = 0; w < wordCount; w++) this.offsets[w + 1] = this.offsets[w] + df[w];
    const fill = this.offsets.slice(0, wordCount);
    this.postings = new Uint32Array(used);
    this.termFreq = new Uint8Array(used);
    for (let d = 0; d < n; d++) {
      for (let p = docStart[d]; p < docStart[d + 1]; p++) {
        const at = fill[docWords[p]]++;
        this.postings[at] = d;
        this.termFreq[at] = docTf[p];
      }
    }
    this.scores = new Float64Array(n);
    this.matched = new Uint32Array(n);
    this.touched = new Uint32Array(n);
  }

  get documentCount(): number {
    return this.docLength.length;
  }

  idOf(word: string): number | undefined {
    return this.ids.get(word);
  }

  /** Values holding `word` (0 when none). */
  frequency(word: string): number {
    const id = this.ids.get(word);
    return id === undefined ? 0 : this.docFreq[id];
  }

  /**
   * The `limit` best documents for the terms (OR), best first. `accept` filters documents (scope)
   * before they are scored. Work is one step per posting of the given terms.
   */
  search(
    terms: readonly ScoredTerm[],
    limit: number,
    accept?: (doc: number) => boolean,
  ): Array<{ doc: number; score: number }> {
    const n = this.documentCount;
    let touchedCount = 0;
    for (const t of terms) {
      const df = this.docFreq[t.word];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const bit = 1 << Math.min(t.source, MAX_QUERY_WORDS);
      for (let p = this.offsets[t.word]; p < this.offsets[t.word + 1]; p++) {
        const doc = this.postings[p];
        if (accept && !accept(doc)) continue;
        const tf = this.termFreq[p];
        const norm = 1 - BM25.b + (BM25.b * this.docLength[doc]) / this.avgDocLength;
        const score = t.weight * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * norm));
        if (this.matched[doc] === 0) this.touched[touchedCount++] = doc;
        this.scores[doc] += score;
        this.matched[doc] |= bit;
      }
    }
    const best = topByScore(this.touched, touchedCount, limit, (doc) => this.scores[doc] * bitCount(this.matched[doc]));
    for (let i = 0; i < touchedCount; i++) {
      const doc = this.touched[i];
      this.scores[doc] = 0;
      this.matched[doc] = 0;
    }
    return best;
  }
}

/** The `limit` highest-scoring of the first `count` documents, best first (a small sorted buffer). */
function topByScore(
  docs: Uint32Array,
  count: number,
  limit: number,
  scoreOf: (doc: number) => number,
): Array<{ doc: number; score: number }> {
  const best: Array<{ doc: number; score: number }> = [];
  for (let i = 0; i < count; i++) {
    const doc = docs[i];
    const score = scoreOf(doc);
    if (best.length === limit && score <= best[limit - 1].score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].score < score) at--;
    best.splice(at, 0, { doc, score });
    if (best.length > limit) best.pop();
  }
  return best;
}

function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function grow(a: Uint32Array, size: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}

function growBytes(a: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(size);
  b.set(a);
  return b;
}
