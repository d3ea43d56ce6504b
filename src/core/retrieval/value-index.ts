// SearchValue's index: the distinct text values of a database's text columns, searchable by words
// (BM25), by the start of a value, and with one-edit typos (swaps included).
//
// A search gathers candidates from three bounded sources, then re-ranks them (value-rank.ts):
//  1. the values sorted by their normalised form: equality and "starts with the query" are a
//     binary search plus a capped scan, so short or common queries cost the same as rare ones;
//  2. BM25 over the words of each value (value-postings.ts), queried with explicit terms: the
//     query's words, completions of the last word when it is cut short, words of the same stem,
//     and spelling neighbours one edit away, swaps included (value-typos.ts explains why deletion
//     keys and not MiniSearch's fuzzy search). Terms join in order of rarity until a budget of
//     postings is spent, so a word held by half the values is dropped instead of scoring half the
//     index. Open-ended prefix and fuzzy expansion would walk an unbounded part of the
//     vocabulary (2-3 letter prefixes took 350-550 ms on 1M values in MiniSearch, DESIGN.md 4);
//  3. (outside this class) LIKE at query time for columns that were sampled or not indexed,
//     see value-like.ts.

import { DowserError } from '../errors';
import type { ColumnRef, DistinctColumnValues, ValueHit } from './types';
import {
  isFunctionWord,
  MAX_STEM_ENDING,
  rankValue,
  toRankQuery,
  type RankContext,
  type RankQuery,
} from './value-rank';
import { WordPostings, type ScoredTerm } from './value-postings';
import { normalizeValue } from './value-text';
import { MIN_TYPO_WORD, TypoNeighbours } from './value-typos';

// The query-time LIKE search for values this index does not hold lives in value-like.ts.
export { likeFallbackSearch, likeTargets } from './value-like';

export interface ValueSearchOptions {
  /** Only this table (case-insensitive). */
  table?: string;
  /** Only columns with this name (case-insensitive), in `table` when given. */
  column?: string;
  k?: number;
}

export interface ValueIndexBuildOptions {
  onProgress?(done: number, total: number): void;
  signal?: AbortSignal;
}

export const DEFAULT_K = 5;
/** Queries this short (normalised) only match values equal to them. */
const EXACT_ONLY_MAX_LENGTH = 2;
/** Words shorter than this do not fetch candidates on their own (they still count in ranking). */
const MIN_WORD_LENGTH = 2;
/** The last word is completed ("spri" -> "spring", "springfield") from this length on. */
const MIN_PREFIX_WORD = 3;
/** Completions of the last word tried, the most frequent first. */
const MAX_COMPLETIONS = 40;
/** Vocabulary entries looked at when completing a word. */
const COMPLETION_SCAN = 5_000;
/** Spelling neighbours tried per query word, the most frequent first. */
const MAX_NEIGHBOURS = 16;
/** Postings scored per query: bounds the work for common words (about 1 ms per 100k). */
const POSTING_BUDGET = 200_000;
/** BM25 results passed to re-ranking. */
const BM25_CANDIDATES = 50;
/** Values starting with the query passed to re-ranking, and sorted entries looked at to find them. */
const PREFIX_CANDIDATES = 50;
const PREFIX_SCAN = 20_000;
const NORMALISE_CHUNK = 50_000;

const TERM_WEIGHT = { word: 1, completion: 0.8, neighbour: 0.6 };

interface Term extends ScoredTerm {
  postings: number;
}

export class ValueIndex {
  private readonly refs: ColumnRef[];
  private readonly values: string[];
  private readonly counts: Uint32Array;
  private readonly columnOf: Uint32Array;
  private readonly norms: string[];
  /** Document ids ordered by normalised value (equality and prefix look-ups). */
  private readonly sorted: Uint32Array;
  private readonly bm25: WordPostings;
  /** The distinct words, sorted (completing a cut-short last word). */
  private readonly sortedWords: string[];
  private readonly typos: TypoNeighbours;
  private readonly rankContext: RankContext;

  private constructor(parts: {
    refs: ColumnRef[];
    values: string[];
    counts: Uint32Array;
    columnOf: Uint32Array;
    norms: string[];
    bm25: WordPostings;
    sorted: Uint32Array;
  }) {
    this.refs = parts.refs;
    this.values = parts.values;
    this.counts = parts.counts;
    this.columnOf = parts.columnOf;
    this.norms = parts.norms;
    this.bm25 = parts.bm25;
    this.sorted = parts.sorted;
    this.sortedWords = [...this.bm25.words].sort();
    this.typos = new TypoNeighbours(this.sortedWords);
    const total = Math.max(1, this.values.length);
    let maxRows = 1;
    for (const c of this.counts) if (c > maxRows) maxRows = c;
    this.rankContext = {
      idf: (word) => Math.log(1 + total / (this.bm25.frequency(word) + 0.5)),
      maxRows,
    };
  }

  /** Indexes the values of every column whose policy kept values ('all' and 'sampled'). */
  static async build(columns: DistinctColumnValues[], options: ValueIndexBuildOptions = {}): Promise<ValueIndex> {
    const { onProgress, signal } = options;
    const indexed = columns.filter((c) => c.values.length > 0);
    const total = indexed.reduce((n, c) => n + c.values.length, 0);
    const refs: ColumnRef[] = indexed.map(({ table, column }) => ({ table, column }));
    const values: string[] = new Array(total);
    const norms: string[] = new Array(total);
    const counts = new Uint32Array(total);
    const columnOf = new Uint32Array(total);

    // Progress in steps: normalising counts one per value (the only work proportional to text),
    // the posting lists and the sorted order half a value each.
    const steps = total * 2;
    const report = async (done: number) => {
      if (signal?.aborted) throw new DowserError('cancelled', 'Building the value index was cancelled.');
      onProgress?.(done, steps);
      // Let the host deliver messages (progress, cancel) between chunks.
      await Promise.resolve();
    };
    let id = 0;
    for (let c = 0; c < indexed.length; c++) {
      const col = indexed[c];
      for (let i = 0; i < col.values.length; i++, id++) {
        values[id] = col.values[i];
        counts[id] = col.counts[i] ?? 0;
        columnOf[id] = c;
        norms[id] = normalizeValue(col.values[i]);
        if ((id + 1) % NORMALISE_CHUNK === 0) await report(id + 1);
      }
    }
    await report(total);
    const bm25 = new WordPostings(norms);
    await report(total * 1.5);
    const sorted = sortByNorm(norms);
    const index = new ValueIndex({ refs, values, counts, columnOf, norms, bm25, sorted });
    await report(steps);
    return index;
  }

  /** Number of indexed values. */
  get size(): number {
    return this.values.length;
  }

  /** The indexed columns. */
  get columns(): readonly ColumnRef[] {
    return this.refs;
  }

  search(query: string, options: ValueSearchOptions = {}): ValueHit[] {
    const k = Math.max(1, options.k ?? DEFAULT_K);
    const rq = toRankQuery(query);
    if (rq.norm === '' || this.values.length === 0) return [];
    const scope = this.scopeOf(options);
    if (scope && !scope.includes(1)) return [];
    const inScope = (id: number) => !scope || scope[this.columnOf[id]] === 1;

    const candidates = new Set<number>();
    this.collectSorted(rq.norm, true, inScope, candidates);
    if (rq.norm.length > EXACT_ONLY_MAX_LENGTH) {
      this.collectSorted(rq.lastIsPartial ? rq.norm : rq.norm + ' ', false, inScope, candidates);
      // A word of a longer query may be a whole value, however short: "sex F", "section h".
      for (const word of rq.words) {
        if (rq.words.length > 1 && !(rq.hasContent && isFunctionWord(word)))
          this.collectSorted(word, true, inScope, candidates);
      }
      this.collectWords(rq, scope, candidates);
    }
    return this.rank(rq, candidates, k);
  }

  /** Scores a value found elsewhere (LIKE fallback) on the same scale as this index's hits. */
  score(query: string, value: string, rows: number): number {
    return rankValue(toRankQuery(query), normalizeValue(value), rows, this.rankContext).score;
  }

  /** Columns in scope as a 0/1 mask over column numbers; null when the search is not scoped. */
  private scopeOf({ table, column }: ValueSearchOptions): Uint8Array | null {
    if (!table && !column) return null;
    const t = table?.toLowerCase();
    const c = column?.toLowerCase();
    return Uint8Array.from(this.refs, (r) =>
      (!t || r.table.toLowerCase() === t) && (!c || r.column.toLowerCase() === c) ? 1 : 0,
    );
  }

  /** Values equal to `key` (exact) or starting with it, the most frequent first, bounded. */
  private collectSorted(key: string, exact: boolean, inScope: (id: number) => boolean, out: Set<number>): void {
    const found: number[] = [];
    const start = lowerBound(this.sorted.length, (p) => this.norms[this.sorted[p]], key);
    const end = Math.min(this.sorted.length, start + PREFIX_SCAN);
    for (let p = start; p < end; p++) {
      const id = this.sorted[p];
      const norm = this.norms[id];
      if (exact ? norm !== key : !norm.startsWith(key)) break;
      if (inScope(id)) found.push(id);
    }
    if (!exact && found.length > PREFIX_CANDIDATES) {
      // the most frequent, then the shortest (closest to what was typed)
      found.sort((a, b) => this.counts[b] - this.counts[a] || this.norms[a].length - this.norms[b].length);
      found.length = PREFIX_CANDIDATES;
    }
    for (const id of found) out.add(id);
  }

  /** BM25 candidates for the query's words, their completions and their spelling neighbours. */
  private collectWords(rq: RankQuery, scope: Uint8Array | null, out: Set<number>): void {
    const terms = this.termsFor(rq);
    if (terms.length === 0) return;
    const accept = scope ? (doc: number) => scope[this.columnOf[doc]] === 1 : undefined;
    for (const { doc } of this.bm25.search(terms, BM25_CANDIDATES, accept)) out.add(doc);
  }

  /** The terms to look up, rarest first, within the posting budget. */
  private termsFor(rq: RankQuery): Term[] {
    const byWord = new Map<number, Term>();
    const add = (text: string, weight: number, source: number) => {
      const word = this.bm25.idOf(text);
      if (word === undefined) return;
      const known = byWord.get(word);
      if (known && known.weight >= weight) return;
      byWord.set(word, { word, weight, source, postings: this.bm25.docFreq[word] });
    };
    const byFrequency = (a: string, b: string) => this.bm25.frequency(b) - this.bm25.frequency(a);
    rq.words.forEach((word, i) => {
      if (word.length < MIN_WORD_LENGTH || (rq.hasContent && isFunctionWord(word))) return;
      add(word, TERM_WEIGHT.word, i);
      const isLast = i === rq.words.length - 1;
      if (isLast && rq.lastIsPartial && word.length >= MIN_PREFIX_WORD) {
        for (const c of this.completions(word, Infinity))
          add(c, TERM_WEIGHT.completion * (word.length / c.length) ** 0.5, i);
      }
      if (word.length >= MIN_TYPO_WORD) {
        for (const n of this.typos.near(word).sort(byFrequency).slice(0, MAX_NEIGHBOURS))
          add(n, TERM_WEIGHT.neighbour, i);
        // Same stem: "asian" meets "asia", "engineering" meets "engineer", and the other way.
        for (let cut = 1; cut <= MAX_STEM_ENDING && word.length - cut >= MIN_TYPO_WORD; cut++)
          add(word.slice(0, -cut), TERM_WEIGHT.neighbour, i);
        for (const c of this.completions(word, word.length + MAX_STEM_ENDING)) add(c, TERM_WEIGHT.neighbour, i);
      }
    });
    const terms = [...byWord.values()].sort((a, b) => a.postings - b.postings);
    const kept: Term[] = [];
    let budget = POSTING_BUDGET;
    for (const t of terms) {
      if (t.postings > budget) continue;
      budget -= t.postings;
      kept.push(t);
    }
    return kept;
  }

  /** Longer words (up to `maxLength` letters) starting with `prefix`, the most frequent first. */
  private completions(prefix: string, maxLength: number): string[] {
    const found: string[] = [];
    const start = lowerBound(this.sortedWords.length, (p) => this.sortedWords[p], prefix);
    const end = Math.min(this.sortedWords.length, start + COMPLETION_SCAN);
    for (let p = start; p < end && this.sortedWords[p].startsWith(prefix); p++) {
      const word = this.sortedWords[p];
      if (word !== prefix && word.length <= maxLength) found.push(word);
    }
    if (found.length > MAX_COMPLETIONS) {
      found.sort((a, b) => this.bm25.frequency(b) - this.bm25.frequency(a));
      found.length = MAX_COMPLETIONS;
    }
    return found;
  }

  private rank(rq: RankQuery, candidates: Set<number>, k: number): ValueHit[] {
    const hits: ValueHit[] = [];
    for (const id of candidates) {
      const { score, match } = rankValue(rq, this.norms[id], this.counts[id], this.rankContext);
      const ref = this.refs[this.columnOf[id]];
      hits.push({ table: ref.table, column: ref.column, value: this.values[id], rows: this.counts[id], score, match });
    }
    hits.sort(
      (a, b) =>
        b.score - a.score ||
        b.rows - a.rows ||
        compareText(a.value, b.value) ||
        compareText(a.table + '.' + a.column, b.table + '.' + b.column),
    );
    return hits.slice(0, k);
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Document ids ordered by their normalised value. */
function sortByNorm(norms: string[]): Uint32Array {
  const ids = new Uint32Array(norms.length);
  for (let i = 0; i < ids.length; i++) ids[i] = i;
  return ids.sort((a, b) => compareText(norms[a], norms[b]));
}

/** First position in a sorted sequence of `length` strings whose string is >= key. */
function lowerBound(length: number, at: (position: number) => string, key: string): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
