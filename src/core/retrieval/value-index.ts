// SearchValue's index: every text value of every text column, searchable by words (BM25), by
// the start of a value, and with typos (one edit in words of 3+ letters, two in words of 7+).
// No search reads the table at question time, except to read back the few long texts it
// returns, by rowid (a seek each).
//
// Built from one read of every row (distinct-values.ts feeds ValueIndexBuilder):
//   short values (up to SHORT_VALUE characters): kept once each with their row counts, in
//     one array of UTF-8 bytes (value-store.ts); their words go to one set of postings;
//   long texts: not kept (the file has them): a 64-bit hash, the first rowid and the row count
//     per distinct text; their words go to a second set of postings;
//   date/time-like values: not indexed (they are compared in SQL, not searched by spelling).
// Rows are counted on the reading thread; each distinct value and text is tokenized once by a
// TokenizerPort (value-tokenizer.ts), in the same thread or in a worker (decision 014).
//
// A search gathers candidates from bounded sources, then re-ranks them (value-rank.ts):
//  1. the normalised query looked up whole in a hash table (exact values, any case or accent);
//  2. BM25 over words, queried with explicit terms: the query's words, completions of the last
//     word when it is cut short, words of the same stem, and spelling neighbours
//     (value-typos.ts). Terms join in order of rarity until a budget of postings is spent, so
//     a word held by half the values is dropped instead of scoring half the index;
//  3. for a query whose last word is cut short, the values holding its rarest whole word are
//     checked for starting with the query, up to a bound.
// docs/decisions/010-value-index.md has the measurements behind the design.

import { DowserError } from '../errors';
import type { SqlExecutor } from '../executor';
import { quoteIdent } from '../sql/quote';
import type { ColumnInfo, ColumnStats, SqlValue, TableInfo } from '../types';
import type { ColumnSink, ValueSink } from './distinct-values';
import { rowidName } from './distinct-values';
import type { ColumnValueSummary, ValueHit } from './types';
import { Postings, type ScoredTerm } from './value-postings';
import {
  isFunctionWord,
  MAX_STEM_ENDING,
  EXACT_BONUS,
  rankValue,
  toRankQuery,
  type RankContext,
  type RankQuery,
} from './value-rank';
import { NumberColumnStats } from './number-stats';
import { type ColumnState, ValueColumns } from './value-columns';
import { compareText } from '../text/normalize';
import {
  encodeScratch,
  IdTable,
  scratchBytes,
  TextCounter,
  type TextCounterData,
  utf16Length,
  ValueCounter,
  type ValueCounterData,
} from './value-store';
import { compactKey, isDateLikeBytes, normalizeValue, startsWithNormalized } from './value-text';
import { maxEdits, MIN_TYPO_WORD, TypoNeighbours } from './value-typos';
import { localTokenizer, type TokenizedParts, type TokenizerPort } from './value-tokenizer';
import { hashRange, Vocabulary } from './value-vocab';

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
/** Longer values are long texts: indexed by word, not kept, read back by rowid. */
export const SHORT_VALUE = 100;
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
/** Words shorter than this get no stems: "car" is not the stem of "card" or "care". */
const MIN_STEM_WORD = 4;
/** Spelling neighbours tried per query word, the closest and most frequent first. */
const MAX_NEIGHBOURS = 16;
/** Postings scored per query and per set of postings: bounds the work for common words. */
const POSTING_BUDGET = 80_000;
/** BM25 results passed to re-ranking. */
const BM25_CANDIDATES = 50;
/** Besides those, each looked-up term's best values on that term alone (see Postings.search). */
const PER_TERM_CANDIDATES = 3;
/** Long texts read back and re-ranked per search. */
const TEXT_CANDIDATES = 10;
/** Long texts read back when every word of the query is too common to score. */
const COMMON_WORD_TEXTS = 30;
/** Values starting with the query passed to re-ranking, and values checked to find them. */
const PREFIX_CANDIDATES = 50;
const PREFIX_CHECKS = 20_000;

const TERM_WEIGHT = { word: 1, completion: 0.8, neighbour1: 0.6, neighbour2: 0.45, stem: 0.6 };
/** Distinct values, or long texts, sent to the tokenizer at once (a message when it is a worker). */
const BATCH = 5_000;
/** Distinct date/time values kept per column for its statistics; past it SQL gives them. */
const DATE_VALUES_CAP = 1 << 17;
/** Bytes of long texts sent at once. */
const BATCH_BYTES = 1 << 21;

export interface ValueIndexBuilderOptions {
  /** Where values are tokenized: this thread (the default) or a worker. */
  tokenizer?: TokenizerPort;
}

/**
 * Collects the cells of every text column while the tables are read: counts rows per value on
 * this thread and sends each distinct value and long text, once, to the tokenizer.
 */
export class ValueIndexBuilder implements ValueSink {
  private readonly values = new ValueCounter();
  private readonly texts = new TextCounter();
  /** Distinct date/time values per column, for the column's statistics (not indexed). */
  private dates: ValueCounter | null = new ValueCounter();
  private readonly states: ColumnState[] = [];
  private readonly numberColumns: NumberColumnStats[] = [];
  private readonly tokenizer: TokenizerPort;
  /**
   * Whether each distinct value goes to the tokenizer when first seen (a worker: tokenized while
   * the tables are read), or all at once from the counter when every table was read (this
   * thread, in `finish`: about 1 s faster at 1M values than interleaving them with the counting,
   * `node --import tsx scripts/bench-value-builder.ts`).
   */
  private readonly streamValues: boolean;
  /** Values already sent to the tokenizer (ids below it), when streaming. */
  private sentValues = 0;
  /** Long texts not yet sent: their UTF-8 bytes one after another, and their ends. */
  private textBytes = new Uint8Array(BATCH_BYTES);
  private textEnds = new Uint32Array(BATCH);
  private textUnits = new Uint32Array(BATCH);
  private textCount = 0;
  private read: ValueColumns | null = null;

  constructor(options: ValueIndexBuilderOptions = {}) {
    this.tokenizer = options.tokenizer ?? localTokenizer();
    this.streamValues = options.tokenizer !== undefined;
  }

  column(table: TableInfo, column: ColumnInfo, hasRowid: boolean): ColumnSink {
    return this.columnNamed(table.name, column.name, hasRowid ? rowidName(table) : null);
  }

  numbers(table: TableInfo, column: ColumnInfo): NumberColumnStats {
    const stats = new NumberColumnStats(table.name, column.name);
    this.numberColumns.push(stats);
    return stats;
  }

  columnNamed(table: string, column: string, rowid: string | null): ColumnSink {
    const n = this.states.length;
    const { values, texts } = this;
    const dates = this.dates!;
    const state: ColumnState = {
      table,
      column,
      rowid,
      rowsScanned: 0,
      notIndexed: 0,
      countOnlyFrom: null,
      dates: 0,
      dateValues: 0,
      nulls: 0,
      others: 0,
      textCells: 0,
      textLength: 0,
    };
    this.states.push(state);
    let countOnly = false;
    const addBytes = (bytes: Uint8Array, start: number, length: number, id: number | null) => {
      state.textCells++;
      // Lengths in UTF-16 units, as JavaScript and the rest of the index count them.
      const units = utf16Length(bytes, start, length);
      state.textLength += units;
      if (isDateLikeBytes(bytes, start, length)) {
        state.dates++;
        if (state.dateValues >= 0) {
          const before = dates.size;
          if (dates.addBytes(bytes, start, length, units, n) === before && ++state.dateValues > DATE_VALUES_CAP)
            state.dateValues = -1;
        }
      } else if (countOnly) {
        if (state.countOnlyFrom === null && id !== null) state.countOnlyFrom = id;
        // The budget is spent: a value already held counts one more row, any other is not kept.
        if ((units > SHORT_VALUE && id !== null && rowid !== null) || values.countBytes(bytes, start, length, n) < 0)
          state.notIndexed++;
      } else if (units <= SHORT_VALUE || id === null || rowid === null) {
        values.addBytes(bytes, start, length, units, n);
        if (this.streamValues && values.size - this.sentValues === BATCH) this.sendValues();
      } else if (texts.addBytes(bytes, start, length, id, n) >= 0) this.addText(bytes, start, length, units);
    };
    return {
      other: (v: SqlValue) => {
        if (v === null) state.nulls++;
        else state.others++;
      },
      addBytes,
      add: (v, id) => {
        const length = encodeScratch(v);
        addBytes(scratchBytes(), 0, length, id);
      },
      budgetSpent: () => {
        countOnly = true;
      },
      searchedByEngine: (how) => {
        state.searchedBy = how;
      },
      done: (rows) => {
        state.rowsScanned = rows;
      },
    };
  }

  private sendValues(): void {
    const to = this.values.size;
    if (to === this.sentValues) return;
    this.tokenizer.addValues(this.values.range(this.sentValues, to));
    this.sentValues = to;
  }

  private addText(bytes: Uint8Array, start: number, length: number, units: number): void {
    let used = this.textCount === 0 ? 0 : this.textEnds[this.textCount - 1];
    if (used + length > this.textBytes.length && this.textCount > 0) {
      this.sendTexts();
      used = 0;
    }
    // A text longer than a batch gets a buffer of its own.
    if (length > this.textBytes.length) this.textBytes = new Uint8Array(length);
    this.textBytes.set(bytes.subarray(start, start + length), used);
    this.textUnits[this.textCount] = (this.textCount === 0 ? 0 : this.textUnits[this.textCount - 1]) + units;
    this.textEnds[this.textCount++] = used + length;
    if (this.textCount === BATCH) this.sendTexts();
  }

  private sendTexts(): void {
    if (this.textCount === 0) return;
    const count = this.textCount;
    const bytes = this.textBytes.subarray(0, this.textEnds[count - 1]);
    // The port may transfer the buffers: each batch gets new ones.
    this.tokenizer.addTexts({
      bytes,
      ends: this.textEnds.subarray(0, count),
      units: this.textUnits.subarray(0, count),
    });
    this.textBytes = new Uint8Array(BATCH_BYTES);
    this.textEnds = new Uint32Array(BATCH);
    this.textUnits = new Uint32Array(BATCH);
    this.textCount = 0;
  }

  /**
   * Every table was read: the columns' counts and statistics, known before tokenizing ends.
   * No cell may be added afterwards.
   */
  counted(): ValueColumns {
    if (!this.read) {
      this.sendTexts();
      this.values.freeze();
      if (this.streamValues) this.sendValues();
      this.texts.freeze();
      const dates = this.dates!;
      dates.freeze();
      // ValueColumns holds them now, and drops them once the statistics are taken.
      this.dates = null;
      this.read = new ValueColumns(this.states, this.values, this.texts, this.numberColumns, dates);
    }
    return this.read;
  }

  /** Stops the tokenizer (a worker is terminated); for a build given up before `finish`. */
  close(): void {
    this.tokenizer.close();
  }

  /** The index, once the tokenizer has tokenized everything sent to it. */
  async finish(options: ValueIndexBuildOptions = {}): Promise<ValueIndex> {
    const { onProgress, signal } = options;
    const columns = this.counted();
    const cancelled = () => new DowserError('cancelled', 'Building the value index was cancelled.');
    if (signal?.aborted) {
      this.close();
      throw cancelled();
    }
    const n = this.values.size;
    const steps = this.streamValues ? 1 : Math.ceil(n / BATCH) + 1;
    onProgress?.(0, steps);
    if (!this.streamValues)
      for (let id = 0, step = 1; id < n; id += BATCH, step++) {
        this.tokenizer.addValues(this.values.range(id, Math.min(n, id + BATCH)));
        onProgress?.(step, steps);
        // Let the host deliver messages (progress, cancel) between batches.
        await Promise.resolve();
        if (signal?.aborted) {
          this.close();
          throw cancelled();
        }
      }
    // A cancel stops the tokenizer and does not wait for it (a terminated worker never answers).
    let stop = () => undefined as void;
    const aborted = new Promise<never>((_, reject) => {
      stop = () => {
        this.close();
        reject(cancelled());
      };
    });
    aborted.catch(() => undefined);
    signal?.addEventListener('abort', stop);
    let parts: TokenizedParts;
    try {
      parts = await Promise.race([this.tokenizer.finish(), aborted]);
    } catch (e) {
      throw signal?.aborted ? cancelled() : e;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    if (signal?.aborted) throw cancelled();
    const index = ValueIndex.fromParts(parts, this.values, this.texts, columns);
    onProgress?.(steps, steps);
    return index;
  }
}

/** Every array of the data, in a fixed order. */
function arraysOf(d: Omit<ValueIndexData, 'checksum'>): ArrayBufferView[] {
  const p = (x: ValueIndexData['valuePostings']) => [x.data, x.offsets, x.docFreq, x.docLength];
  const { vocab, values, texts } = d;
  return [
    vocab.hashes,
    vocab.keys,
    vocab.lengths,
    vocab.slots,
    vocab.bucketTerm,
    ...p(d.valuePostings),
    ...p(d.textPostings),
    d.normHashes,
    d.exactSlots,
    values.bytes,
    values.starts,
    values.unitEnds,
    values.counts,
    values.columns,
    texts.counts,
    texts.rowids,
    texts.columns,
  ];
}

/**
 * A 32-bit checksum of the arrays' bytes and lengths and of the columns' states (word by word,
 * multiply-and-add: about 1 GB/s, against corruption, not tampering).
 */
function checksumOf(d: Omit<ValueIndexData, 'checksum'>): number {
  let h = 0x9e3779b9 ^ d.vocab.words.length;
  for (const a of arraysOf(d)) {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const whole = a.byteOffset % 4 === 0 ? bytes.length >>> 2 : 0;
    const words = new Uint32Array(a.buffer, a.byteOffset, whole);
    h = Math.imul(h ^ bytes.length, 0x85ebca6b);
    for (let i = 0; i < words.length; i++) h = (Math.imul(h, 31) + words[i]) | 0;
    for (let i = whole * 4; i < bytes.length; i++) h = (Math.imul(h, 31) + bytes[i]) | 0;
  }
  const states = JSON.stringify(d.states);
  for (let i = 0; i < states.length; i++) h = (Math.imul(h, 31) + states.charCodeAt(i)) | 0;
  return h >>> 0;
}

/** An open-addressing table over `count` ids: a power-of-two length, an empty slot, ids in range. */
function checkSlots(slots: Int32Array, count: number): void {
  const n = slots.length;
  if (n === 0 || (n & (n - 1)) !== 0) throw new Error('ValueIndex.fromData: a hash table of odd size');
  let empty = false;
  for (let i = 0; i < n; i++) {
    const id = slots[i];
    if (id < 0) empty = true;
    else if (id >= count) throw new Error('ValueIndex.fromData: a hash table names an unknown id');
  }
  if (!empty) throw new Error('ValueIndex.fromData: a hash table without an empty slot');
}

function checkPostings(p: ValueIndexData['valuePostings']): void {
  const { offsets, docFreq, data } = p;
  if (offsets.length !== docFreq.length + 1 || !ascending(offsets) || offsets[offsets.length - 1] > data.length)
    throw new Error('ValueIndex.fromData: postings out of order');
}

function ascending(a: Uint32Array): boolean {
  for (let i = 1; i < a.length; i++) if (a[i] < a[i - 1]) return false;
  return true;
}

interface Parts {
  vocab: Vocabulary;
  values: ValueCounter;
  texts: TextCounter;
  valuePostings: Postings;
  textPostings: Postings;
  normHashes: Uint32Array;
  exact: IdTable;
  columns: ValueColumns;
}

/** A query as prepared for both sets of postings. */
interface Plan {
  rq: RankQuery;
  /** Column numbers in scope (null: all). */
  scope: Uint8Array | null;
  /** Values in scope equal to the whole query (normalised), found once while planning. */
  exact: Set<number>;
  terms: ScoredTerm[];
}

/**
 * A value index as arrays and plain objects (ValueIndex.toData), to keep it between visits
 * (issue 26). The columns' numeric and date statistics are not in it: the toolbox keeps the
 * statistics it took.
 */
export interface ValueIndexData extends TokenizedParts {
  values: ValueCounterData;
  texts: TextCounterData;
  states: ColumnState[];
  /** Of every array (arraysOf): damaged data is refused, never searched. */
  checksum: number;
}

export class ValueIndex {
  private readonly p: Parts;
  /** The words (not codes), sorted: completing a cut-short last word. */
  private readonly sortedWords: string[];
  private readonly typos: TypoNeighbours;
  private readonly rankContext: RankContext;

  constructor(parts: Parts) {
    this.p = parts;
    // Codes are '' in the vocabulary (kept in buckets): what is left are words, without digits.
    this.sortedWords = parts.vocab.words.filter((w) => w !== '').sort();
    this.typos = new TypoNeighbours(parts.vocab.words);
    const total = Math.max(1, parts.values.size + parts.texts.size);
    let maxRows = 1;
    for (const c of parts.values.counts) if (c > maxRows) maxRows = c;
    this.rankContext = {
      idf: (word) => Math.log(1 + total / (this.frequency(parts.vocab.termId(word)) + 0.5)),
      maxRows,
    };
  }

  /** The index over what the tokenizer made of the counted values. */
  static fromParts(parts: TokenizedParts, values: ValueCounter, texts: TextCounter, columns: ValueColumns): ValueIndex {
    const { normHashes } = parts;
    if (normHashes.length !== values.size) throw new Error('ValueIndex: a hash per value is missing');
    return new ValueIndex({
      vocab: new Vocabulary(parts.vocab),
      values,
      texts,
      valuePostings: Postings.fromData(parts.valuePostings),
      textPostings: Postings.fromData(parts.textPostings),
      normHashes,
      exact: new IdTable((id) => normHashes[id], { slots: parts.exactSlots, count: normHashes.length }),
      columns,
    });
  }

  /** The index as arrays (shared, not copied): see ValueIndexData. */
  toData(): ValueIndexData {
    const { vocab, values, texts, valuePostings, textPostings, normHashes, exact, columns } = this.p;
    const data: Omit<ValueIndexData, 'checksum'> = {
      vocab: vocab.toData(),
      valuePostings: valuePostings.toData(),
      textPostings: textPostings.toData(),
      normHashes,
      exactSlots: exact.slots,
      values: values.toData(),
      texts: texts.toData(),
      states: columns.states.map((s) => ({ ...s })),
    };
    return { ...data, checksum: checksumOf(data) };
  }

  /**
   * An index made again from `toData()`'s arrays (taken over, not copied). Kept data may be
   * damaged: what a search loops or indexes over is checked first, so it throws instead of
   * hanging (a hash table without an empty slot) or reading past an array.
   */
  static fromData(d: ValueIndexData): ValueIndex {
    if (checksumOf(d) !== d.checksum) throw new Error('ValueIndex.fromData: the data was damaged (checksum)');
    checkSlots(d.vocab.slots, d.vocab.words.length);
    checkSlots(d.exactSlots, d.normHashes.length);
    checkPostings(d.valuePostings);
    checkPostings(d.textPostings);
    if (!ascending(d.values.starts) || !ascending(d.values.unitEnds))
      throw new Error('ValueIndex.fromData: value offsets out of order');
    for (const columns of [d.values.columns, d.texts.columns])
      for (let i = 0; i < columns.length; i++)
        if (columns[i] >= d.states.length) throw new Error('ValueIndex.fromData: a value of an unknown column');
    const values = ValueCounter.fromData(d.values);
    const texts = TextCounter.fromData(d.texts);
    return ValueIndex.fromParts(d, values, texts, new ValueColumns(d.states, values, texts));
  }

  /** An index of given values and row counts, as if read from tables (tests, tools). */
  static async fromValues(
    columns: ReadonlyArray<{ table: string; column: string; values: Record<string, number> }>,
  ): Promise<ValueIndex> {
    const builder = new ValueIndexBuilder();
    for (const c of columns) {
      const sink = builder.columnNamed(c.table, c.column, null);
      let rows = 0;
      for (const [v, n] of Object.entries(c.values)) for (let i = 0; i < n; i++, rows++) sink.add(v, null);
      sink.done(rows);
    }
    return builder.finish();
  }

  /** Number of indexed values: distinct short values plus distinct long texts. */
  get size(): number {
    return this.p.values.size + this.p.texts.size;
  }

  /** What the index holds of each text column. */
  get columns(): readonly ColumnValueSummary[] {
    return this.p.columns.summaries;
  }

  /** Bytes the index holds, counted from its arrays and strings. */
  memoryBytes(): number {
    const { vocab, values, texts, valuePostings, textPostings, normHashes, exact, columns } = this.p;
    const sorted = this.sortedWords.length * 8;
    return (
      vocab.memoryBytes() +
      values.memoryBytes() +
      texts.memoryBytes() +
      valuePostings.memoryBytes() +
      textPostings.memoryBytes() +
      normHashes.byteLength +
      exact.byteLength +
      sorted +
      this.typos.memoryBytes() +
      columns.memoryBytes()
    );
  }

  /** See ValueColumns.columnStats. */
  columnStats(table: string, column: string): ColumnStats | null {
    return this.p.columns.columnStats(table, column);
  }

  /**
   * The `limit` short values of a text column that the most rows hold, with their rows; null for
   * a column the index does not know. What a search that found nothing there can show instead.
   */
  topValues(table: string, column: string, limit: number): Array<{ value: string; rows: number }> | null {
    const n = this.p.columns.states.findIndex((c) => c.table === table && c.column === column);
    return n < 0 ? null : this.p.columns.topValues(n, limit);
  }

  private frequency(term: number | undefined): number {
    return this.p.valuePostings.frequency(term) + this.p.textPostings.frequency(term);
  }

  /** Short values only (synchronous): what the linker and SQL repair hints use. */
  search(query: string, options: ValueSearchOptions = {}): ValueHit[] {
    const k = Math.max(1, options.k ?? DEFAULT_K);
    const plan = this.plan(query, options);
    return plan ? this.rank(plan.rq, this.valueCandidates(plan), k, query) : [];
  }

  /**
   * Short values and long texts: the texts that match best are read back from the table by
   * rowid (one statement per table) and ranked with the values.
   */
  async searchAll(exec: SqlExecutor, query: string, options: ValueSearchOptions = {}): Promise<ValueHit[]> {
    const k = Math.max(1, options.k ?? DEFAULT_K);
    const plan = this.plan(query, options);
    if (!plan) return [];
    const hits = this.rank(plan.rq, this.valueCandidates(plan), k, query);
    if (this.p.texts.size > 0 && plan.terms.length > 0) hits.push(...(await this.textHits(exec, plan)));
    return sortHits(hits).slice(0, k);
  }

  /** Scores a value found elsewhere on the same scale as this index's hits. */
  score(query: string, value: string, rows: number): number {
    return rankValue(toRankQuery(query), normalizeValue(value), rows, this.rankContext).score;
  }

  private plan(query: string, options: ValueSearchOptions): Plan | null {
    const rq = toRankQuery(query);
    if (rq.norm === '' || this.size === 0) return null;
    const scope = this.scopeOf(options);
    if (scope && !scope.includes(1)) return null;
    const { values } = this.p;
    const exact = new Set<number>();
    this.collectExact(rq.norm, (id) => !scope || scope[values.columns[id]] === 1, exact);
    // A query some value equals is spelt as stored: its words get no spelling neighbours (the
    // typo scan is most of the work of a search on a large vocabulary, and the value ranks first).
    const terms =
      rq.norm.length > EXACT_ONLY_MAX_LENGTH ? this.termsFor(rq, { spellingNeighbours: exact.size === 0 }) : [];
    return { rq, scope, exact, terms };
  }

  /** Columns in scope as a 0/1 mask over column numbers; null when the search is not scoped. */
  private scopeOf({ table, column }: ValueSearchOptions): Uint8Array | null {
    if (!table && !column) return null;
    const t = table?.toLowerCase();
    const c = column?.toLowerCase();
    return Uint8Array.from(this.p.columns.states, (r) =>
      (!t || r.table.toLowerCase() === t) && (!c || r.column.toLowerCase() === c) ? 1 : 0,
    );
  }

  private valueCandidates({ rq, scope, exact, terms }: Plan): Set<number> {
    const { values } = this.p;
    const inScope = (id: number) => !scope || scope[values.columns[id]] === 1;
    const out = new Set<number>(exact);
    if (rq.norm.length <= EXACT_ONLY_MAX_LENGTH) return out;
    // A word of a longer query may be a whole value, however short: "sex F", "section h".
    if (rq.words.length > 1)
      for (const word of rq.words) if (!(rq.hasContent && isFunctionWord(word))) this.collectExact(word, inScope, out);
    if (terms.length > 0) {
      const budgeted = withinBudget(terms, (t) => this.p.valuePostings.frequency(t));
      const docs = this.p.valuePostings.search(
        budgeted,
        BM25_CANDIDATES,
        scope ? inScope : undefined,
        PER_TERM_CANDIDATES,
      );
      for (const { doc } of docs) out.add(doc);
      if (!budgeted.some((t) => t.weight === TERM_WEIGHT.word)) this.collectCommonWords(rq, terms, inScope, out);
    }
    this.collectPrefixed(rq, inScope, out);
    this.collectCompact(rq, inScope, out);
    return out;
  }

  /**
   * Values holding every known word of a query whose words are all too common for the posting
   * budget ("refund" in 150,000 of a million notes): without this such a query found nothing at
   * all. A word the index does not hold stands for its best completion or spelling neighbour
   * ("warrenty" for "warranty"). The rarest word's values are walked in id order, at most
   * POSTING_BUDGET of them, and the first that hold the others too are ranked with the rest.
   */
  private collectCommonWords(
    rq: RankQuery,
    terms: readonly ScoredTerm[],
    inScope: (id: number) => boolean,
    out: Set<number>,
  ): void {
    const { valuePostings, values } = this.p;
    const known = this.wordsStoodFor(rq, terms);
    if (known.length === 0) return;
    const needles = known.map((w) => ` ${w} `);
    let visited = 0;
    let found = 0;
    valuePostings.forEachDoc(this.rarestTerm(valuePostings, known), (id) => {
      if (++visited > POSTING_BUDGET) return false;
      if (!inScope(id)) return;
      const spaced = ` ${normalizeValue(values.get(id))} `;
      if (needles.every((n) => spaced.includes(n)) && !out.has(id)) {
        out.add(id);
        found++;
      }
      return found < BM25_CANDIDATES;
    });
  }

  /**
   * The query's words the index holds, each unknown one as its best completion or neighbour;
   * none when a word has neither ("EV-FC9D0E40": no value holds "fc9d0e40", so none holds every
   * word, and the values holding "ev" are not matches).
   */
  private wordsStoodFor(rq: RankQuery, terms: readonly ScoredTerm[]): string[] {
    const { vocab } = this.p;
    const known: string[] = [];
    let missing = false;
    rq.words.forEach((w, i) => {
      if (w.length < MIN_WORD_LENGTH || (rq.hasContent && isFunctionWord(w))) return;
      if (vocab.termId(w) !== undefined) return void known.push(w);
      const variants = terms.filter((t) => t.source === i && vocab.isWord(t.term));
      const best = variants.sort((a, b) => b.weight - a.weight)[0];
      if (best) known.push(vocab.words[best.term]);
      else missing = true;
    });
    return missing ? [] : known;
  }

  private rarestTerm(postings: Postings, words: readonly string[]): number {
    const ids = words.map((w) => this.p.vocab.termId(w)!);
    return ids.reduce((a, b) => (postings.frequency(b) < postings.frequency(a) ? b : a));
  }

  /** Values whose normalised form is `norm`. */
  private collectExact(norm: string, inScope: (id: number) => boolean, out: Set<number>): void {
    this.p.exact.forEach(hashRange(norm, 0, norm.length), (id) => {
      if (inScope(id) && normalizeValue(this.p.values.get(id)) === norm) out.add(id);
    });
  }

  /**
   * Values starting with a multi-word query whose last word may be cut short ("Mary A"): the
   * values holding its rarest whole word are checked, up to PREFIX_CHECKS of them.
   */
  private collectPrefixed(rq: RankQuery, inScope: (id: number) => boolean, out: Set<number>): void {
    const whole = rq.lastIsPartial ? rq.words.slice(0, -1) : rq.words;
    if (rq.words.length < 2 || whole.length === 0) return;
    const key = rq.lastIsPartial ? rq.norm : rq.norm + ' ';
    let rarest: number | undefined;
    for (const w of whole) {
      const t = this.p.vocab.termId(w);
      if (t === undefined) return; // a whole word no value holds: no value starts with the query
      if (rarest === undefined || this.p.valuePostings.frequency(t) < this.p.valuePostings.frequency(rarest))
        rarest = t;
    }
    if (rarest === undefined || this.p.valuePostings.frequency(rarest) > PREFIX_CHECKS) return;
    const found: number[] = [];
    this.p.valuePostings.forEachDoc(rarest, (id) => {
      if (inScope(id) && startsWithNormalized(this.p.values.get(id), key)) found.push(id);
    });
    const counts = this.p.values.counts;
    found.sort((a, b) => counts[b] - counts[a]);
    for (const id of found.slice(0, PREFIX_CANDIDATES)) out.add(id);
  }

  /** The terms to look up: words, completions, stems and spelling neighbours. */
  private termsFor(rq: RankQuery, { spellingNeighbours }: { spellingNeighbours: boolean }): ScoredTerm[] {
    const { vocab } = this.p;
    const byTerm = new Map<number, ScoredTerm>();
    const add = (text: string, weight: number, source: number) => {
      const term = vocab.termId(text);
      if (term === undefined) return;
      const known = byTerm.get(term);
      if (known && known.weight >= weight) return;
      byTerm.set(term, { term, weight, source });
    };
    const freq = (w: string) => this.frequency(vocab.wordId(w));
    rq.words.forEach((word, i) => {
      // A one-digit number fetches too ("City 5", "Terminal 3"): beside a common word it is what tells them apart.
      if ((word.length < MIN_WORD_LENGTH && !/^\d$/.test(word)) || (rq.hasContent && isFunctionWord(word))) return;
      add(word, TERM_WEIGHT.word, i);
      const isLast = i === rq.words.length - 1;
      if (isLast && rq.lastIsPartial && word.length >= MIN_PREFIX_WORD) {
        for (const c of this.completions(word, Infinity))
          add(c, TERM_WEIGHT.completion * (word.length / c.length) ** 0.5, i);
      }
      if (word.length < MIN_TYPO_WORD || /\d/.test(word)) return;
      if (spellingNeighbours) {
        // A word the index holds is likely spelt as meant: one edit is looked at, not two, and
        // none for a 3-letter word ("cat" has too many neighbours: "car", "cap", "hat"...).
        const known = vocab.wordId(word) !== undefined;
        const edits = known ? (word.length > MIN_TYPO_WORD ? 1 : 0) : maxEdits(word.length);
        const neighbours = this.typos
          .near(word, edits)
          .sort((a, b) => a.distance - b.distance || freq(b.word) - freq(a.word))
          .slice(0, MAX_NEIGHBOURS);
        for (const n of neighbours) add(n.word, n.distance === 1 ? TERM_WEIGHT.neighbour1 : TERM_WEIGHT.neighbour2, i);
      }
      if (word.length < MIN_STEM_WORD) return;
      // Same stem: "asian" meets "asia", "engineering" meets "engineer", and the other way.
      for (let cut = 1; cut <= MAX_STEM_ENDING && word.length - cut >= MIN_STEM_WORD; cut++)
        add(word.slice(0, -cut), TERM_WEIGHT.stem, i);
      for (const c of this.completions(word, word.length + MAX_STEM_ENDING)) add(c, TERM_WEIGHT.stem, i);
    });
    return [...byTerm.values()];
  }

  /** Longer words (up to `maxLength` letters) starting with `prefix`, the most frequent first. */
  private completions(prefix: string, maxLength: number): string[] {
    const words = this.sortedWords;
    const found: string[] = [];
    const start = lowerBound(words.length, (p) => words[p], prefix);
    const end = Math.min(words.length, start + COMPLETION_SCAN);
    for (let p = start; p < end && words[p].startsWith(prefix); p++) {
      const word = words[p];
      if (word !== prefix && word.length <= maxLength) found.push(word);
    }
    if (found.length > MAX_COMPLETIONS) {
      const freq = (w: string) => this.frequency(this.p.vocab.wordId(w));
      found.sort((a, b) => freq(b) - freq(a));
      found.length = MAX_COMPLETIONS;
    }
    return found;
  }

  private rank(rq: RankQuery, candidates: Set<number>, k: number, query: string): ValueHit[] {
    const { values } = this.p;
    const columns = this.p.columns.states;
    const hits: ValueHit[] = [];
    const compactQuery = compactKey(query);
    for (const id of candidates) {
      const value = values.get(id);
      const rows = values.counts[id];
      const norm = normalizeValue(value);
      const ranked = rankValue(rq, norm, rows, this.rankContext);
      let { score, match }: { score: number; match: ValueHit['match'] } = ranked;
      if (ranked.codeUnmatched && compactKey(value) !== compactQuery) continue;
      if (match === 'exact' && value !== query) match = 'case';
      else if (match !== 'exact' && compactQuery.length >= 4 && compactKey(value) === compactQuery) {
        // Spacing-blind: "North Carolina" finds the stored "NorthCarolina" just below exact values.
        match = 'compact';
        score = Math.max(score, EXACT_BONUS + 0.5);
      }
      const c = columns[values.columns[id]];
      hits.push({ table: c.table, column: c.column, value, rows, score, match });
    }
    return sortHits(hits).slice(0, k);
  }

  /**
   * Values equal to the query once spaces are ignored: the words joined ("north carolina" →
   * "northcarolina"), or one word split where both halves are words of the index.
   */
  private collectCompact(rq: RankQuery, inScope: (id: number) => boolean, out: Set<number>): void {
    if (rq.words.length >= 2) {
      this.collectExact(rq.words.join(''), inScope, out);
      return;
    }
    const [word] = rq.words;
    if (!word || word.length < 6) return;
    for (let cut = 3; cut <= word.length - 3; cut++) {
      const left = word.slice(0, cut);
      const right = word.slice(cut);
      if (this.p.vocab.wordId(left) !== undefined && this.p.vocab.wordId(right) !== undefined)
        this.collectExact(`${left} ${right}`, inScope, out);
    }
  }

  /** The best long texts for the plan, read back by rowid and ranked. */
  private async textHits(exec: SqlExecutor, { rq, scope, terms }: Plan): Promise<ValueHit[]> {
    const { texts, textPostings } = this.p;
    const columns = this.p.columns.states;
    const accept = scope ? (doc: number) => scope[texts.columns[doc]] === 1 : undefined;
    const budgeted = withinBudget(terms, (t) => textPostings.frequency(t));
    const docs = textPostings.search(budgeted, TEXT_CANDIDATES, accept);
    // Every word too common to score ("refund" in most notes): the first texts holding the rarest
    // are read back and ranked (the texts are not held, so the other words are checked there).
    const known = budgeted.some((t) => t.weight === TERM_WEIGHT.word) ? [] : this.wordsStoodFor(rq, terms);
    if (known.length > 0 && docs.length === 0)
      textPostings.forEachDoc(this.rarestTerm(textPostings, known), (doc) => {
        if (!accept || accept(doc)) docs.push({ doc, score: 0 });
        return docs.length < COMMON_WORD_TEXTS;
      });
    const byColumn = new Map<number, number[]>();
    for (const { doc } of docs) byColumn.set(texts.columns[doc], [...(byColumn.get(texts.columns[doc]) ?? []), doc]);
    const hits: ValueHit[] = [];
    for (const [col, list] of byColumn) {
      const c = columns[col];
      const rowid = c.rowid!;
      const wanted = new Map(list.map((doc) => [texts.rowids[doc], doc]));
      let rows;
      try {
        const r = await exec.query(
          `SELECT ${rowid}, ${quoteIdent(c.column)} FROM ${quoteIdent(c.table)} WHERE ${rowid} IN (${list.map(() => '?').join(', ')})`,
          { params: [...wanted.keys()], maxRows: list.length },
        );
        rows = r.rows;
      } catch {
        continue; // a table that cannot be read now returns no texts; the values still answer
      }
      for (const [id, text] of rows) {
        const doc = wanted.get(Number(id));
        if (doc === undefined || typeof text !== 'string') continue;
        const count = texts.counts[doc];
        const { score } = rankValue(rq, normalizeValue(text), count, this.rankContext);
        hits.push({ table: c.table, column: c.column, value: text, rows: count, score, match: 'text' });
      }
    }
    return hits;
  }
}

/** Terms rarest first, as many as fit the posting budget of one search. */
function withinBudget(terms: ScoredTerm[], frequency: (term: number) => number): ScoredTerm[] {
  const sorted = [...terms].sort((a, b) => frequency(a.term) - frequency(b.term));
  const kept: ScoredTerm[] = [];
  let budget = POSTING_BUDGET;
  for (const t of sorted) {
    const f = frequency(t.term);
    if (f === 0 || f > budget) continue;
    budget -= f;
    kept.push(t);
  }
  return kept;
}

function sortHits(hits: ValueHit[]): ValueHit[] {
  return hits.sort(
    (a, b) =>
      b.score - a.score ||
      b.rows - a.rows ||
      compareText(a.value, b.value) ||
      compareText(a.table + '.' + a.column, b.table + '.' + b.column),
  );
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
