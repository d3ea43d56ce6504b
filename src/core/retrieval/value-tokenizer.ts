// The tokenizing half of the value index: turns the distinct short values and long texts into
// the vocabulary, both sets of postings and the table of whole normalised values. It needs no
// database and holds no value after tokenizing it, so it can run in a second thread while the
// engine's thread reads the tables and counts rows (decision 014): on two cores the build then
// costs little more than the read. ValueIndexBuilder feeds it through a TokenizerPort, either
// in the same thread (localTokenizer) or in a worker (src/worker/tokenizer-client.ts).

import { type PostingsData, PostingsBuilder } from './value-postings';
import { type ByteBatch, grow, IdTable } from './value-store';

export type { ByteBatch } from './value-store';
import { type VocabularyData, Vocabulary } from './value-vocab';

/**
 * Values decoded together: one string, `ends[i]` the end of value i (it starts at the end of the
 * one before, or 0). Tokenizing reads ranges of it, slicing nothing.
 */
export interface TextBatch {
  text: string;
  ends: Uint32Array;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A batch of UTF-8 values as one string, decoded in one call (batches cross to a worker as bytes,
 * decision 015), the values found in it by the batch's `units`. That holds when the bytes are
 * valid UTF-8 and no value starts inside a character; otherwise (a file with broken text) the
 * values are decoded one by one, so that no character spans two values.
 */
export function decodeBatch({ bytes, ends, units }: ByteBatch): TextBatch {
  let text: string | null;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    text = null;
  }
  if (text !== null && text.length === (units.length === 0 ? 0 : units[units.length - 1])) {
    let aligned = true;
    // ASCII (as long as its bytes) cannot start inside a character.
    if (text.length !== bytes.length)
      for (let i = 0, start = 0; i < ends.length; start = ends[i++])
        if (start < ends[i] && (bytes[start] & 0xc0) === 0x80) aligned = false;
    if (aligned) return { text, ends: units };
  }
  const values: string[] = [];
  const out = new Uint32Array(ends.length);
  let at = 0;
  for (let i = 0, start = 0; i < ends.length; start = ends[i++]) {
    const v = utf8.decode(bytes.subarray(start, ends[i]));
    values.push(v);
    out[i] = at += v.length;
  }
  return { text: values.join(''), ends: out };
}

/** Values as a batch of UTF-8 bytes (tests, and hosts that hold strings). */
export function toByteBatch(values: readonly string[]): ByteBatch {
  const encoded = values.map((v) => new TextEncoder().encode(v));
  const ends = new Uint32Array(values.length);
  const units = new Uint32Array(values.length);
  let at = 0;
  let unit = 0;
  for (let i = 0; i < encoded.length; i++) {
    ends[i] = at += encoded[i].length;
    units[i] = unit += values[i].length;
  }
  const bytes = new Uint8Array(at);
  for (let i = 0; i < encoded.length; i++) bytes.set(encoded[i], i === 0 ? 0 : ends[i - 1]);
  return { bytes, ends, units };
}

/** What tokenizing produced, as plain arrays (the typed arrays can be transferred). */
export interface TokenizedParts {
  vocab: VocabularyData;
  valuePostings: PostingsData;
  textPostings: PostingsData;
  /** Hash of each value's normalised form, by value id. */
  normHashes: Uint32Array;
  /** Slots of an IdTable over normHashes: the values whose normalised form is a given text. */
  exactSlots: Int32Array;
}

/** Where ValueIndexBuilder sends the values to tokenize: this thread, or a worker. */
export interface TokenizerPort {
  /** The next distinct short values, in value-id order (the batch is the port's: it may be transferred). */
  addValues(batch: ByteBatch): void;
  /** The next distinct long texts, in text-id order. */
  addTexts(batch: ByteBatch): void;
  /** Everything was sent: the parts, once the last batch is tokenized. */
  finish(): Promise<TokenizedParts>;
  /** Stops the work (cancel, failure); the port is spent. */
  close(): void;
}

/**
 * Text cells (rows times text columns) from which the engines start a tokenizing worker: below
 * it, the worker's start-up costs more than it saves (decision 014 has the measurement).
 */
export const TOKENIZER_WORKER_MIN_CELLS = 200_000;

/** Tokenizers in workers, where the host can start them (the page's database worker, the CLI). */
export interface TokenizerWorkers {
  /** A tokenizer in a new worker, or null when none can start here (one core, no workers). */
  spawn(): TokenizerPort | null;
  /** Text cells (rows times text columns) from which a worker is worth starting. */
  minCells: number;
}

export class ValueTokenizer {
  private readonly vocab = new Vocabulary();
  private readonly valuePostings = new PostingsBuilder();
  private readonly textPostings = new PostingsBuilder();
  private normHashes = new Uint32Array(1024);
  private readonly exact = new IdTable((id) => this.normHashes[id]);
  private values = 0;

  addValues(batch: ByteBatch): void {
    const { text, ends } = decodeBatch(batch);
    const { vocab, valuePostings, exact } = this;
    for (let i = 0, start = 0; i < ends.length; start = ends[i++]) {
      const count = vocab.tokenize(text, start, ends[i]);
      valuePostings.addDocument(vocab.terms, count);
      const id = this.values++;
      if (id === this.normHashes.length) this.normHashes = grow(this.normHashes, id + 1);
      this.normHashes[id] = vocab.lastNormHash;
      exact.insert(id);
    }
  }

  addTexts(batch: ByteBatch): void {
    const { text, ends } = decodeBatch(batch);
    const { vocab, textPostings } = this;
    for (let i = 0, start = 0; i < ends.length; start = ends[i++])
      textPostings.addDocument(vocab.terms, vocab.tokenize(text, start, ends[i]));
  }

  /** The parts; the tokenizer is spent afterwards. */
  finish(): TokenizedParts {
    const terms = this.vocab.size;
    return {
      vocab: this.vocab.toData(),
      valuePostings: this.valuePostings.finish(terms).toData(),
      textPostings: this.textPostings.finish(terms).toData(),
      normHashes: this.normHashes.slice(0, this.values),
      exactSlots: this.exact.slots,
    };
  }
}

/** The buffers of the parts, to transfer them instead of copying. */
export function transferablesOf(parts: TokenizedParts): ArrayBuffer[] {
  const { vocab, valuePostings: vp, textPostings: tp } = parts;
  const arrays = [
    vocab.hashes,
    vocab.keys,
    vocab.lengths,
    vocab.slots,
    vocab.bucketTerm,
    vp.data,
    vp.offsets,
    vp.docFreq,
    vp.docLength,
    tp.data,
    tp.offsets,
    tp.docFreq,
    tp.docLength,
    parts.normHashes,
    parts.exactSlots,
  ];
  // A buffer may be listed once only.
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** Tokenizes in this thread, as the values arrive. */
export function localTokenizer(): TokenizerPort {
  let tokenizer: ValueTokenizer | null = new ValueTokenizer();
  const live = () => {
    if (!tokenizer) throw new Error('This tokenizer was closed.');
    return tokenizer;
  };
  return {
    addValues: (batch) => live().addValues(batch),
    addTexts: (batch) => live().addTexts(batch),
    finish: async () => {
      const parts = live().finish();
      tokenizer = null;
      return parts;
    },
    close: () => {
      tokenizer = null;
    },
  };
}
