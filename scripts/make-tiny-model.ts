/**
 * Generates a tiny BERT-shaped feature-extraction model, offline, in the exact layout
 * transformers.js loads from the model hub:
 *
 *   config.json, tokenizer.json, tokenizer_config.json,
 *   onnx/model.onnx            (fp32: Gather(embeddings, input_ids) -> last_hidden_state)
 *   onnx/model_quantized.onnx  (q8:   Gather(uint8 table) -> DequantizeLinear -> last_hidden_state)
 *
 * No weights can be downloaded here, so this model lets tests exercise the real loading,
 * tokenising, pooling and caching path in Node and in Chromium. It is a toy: each token's
 * vector is the sum of hashed pseudo-random vectors of its character trigrams (so "customer"
 * is close to "customers" and far from "price"), plus a shared "concept" vector for a few
 * hand-made synonym groups (so "client" is close to "customer"). There are no attention
 * layers: mean pooling over tokens gives a bag-of-words sentence vector.
 *
 * Run: `npm run models:tiny` (writes src/test-fixtures/tiny-model/), or
 * `tsx scripts/make-tiny-model.ts --out <dir>`. Output is byte-for-byte deterministic: only
 * integer hashing and IEEE-exact arithmetic (+, *, /, sqrt), no Math.random, no clock.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';
// Only a source of a few thousand common English (sub)words in a stable order; pinned version.
import { decode } from 'gpt-tokenizer/encoding/cl100k_base';

const { onnx } = onnxProto;

export const TINY_MODEL_ID = 'tiny-model';
export const TINY_HIDDEN_SIZE = 32;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const TINY_MODEL_DIR = resolve(ROOT, 'src/test-fixtures', TINY_MODEL_ID);

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
const COMMON_WORDS_WANTED = 2400;

/** Words a database schema is made of; listed first so they are whole tokens, not pieces. */
const SCHEMA_WORDS = `
table column row rows name names id ids key keys date dates time times year years month months day days
price prices cost costs amount amounts total totals sum count number numbers quantity value values
customer customers client clients buyer buyers shopper consumer patron
order orders purchase purchases sale sales invoice invoices transaction transactions payment payments
product products item items article goods stock inventory category categories type types kind
employee employees staff worker workers manager managers person people user users account accounts
city cities town country countries address addresses location region state states street postal zip code
phone email fax website first last full title label description note notes comment comments status
created updated deleted modified timestamp birth born start end begin finish duration length
album albums track tracks song songs artist artists singer singers band bands music genre genres
playlist playlists media composer milliseconds bytes unit
student students pupil pupils teacher teachers course courses class classes grade grades school schools
department departments salary salaries hire hired job jobs position rank score scores rating ratings
movie movies film films actor actors director directors show shows episode episodes
flight flights airport airports airline airlines departure arrival destination source
team teams player players game games match matches season seasons league stadium
owner owners pet pets dog dogs cat cats age weight height size color
shipping shipped ship delivery delivered supplier suppliers vendor vendors discount tax
currency dollar dollars euro revenue profit income expense budget balance credit debit
document documents file files image images url link parent child children level
latitude longitude population area gdp capital language languages continent
`
  .split(/\s+/)
  .filter(Boolean);

/** Synonym groups: members share a concept vector (the toy's only "semantics"). */
const CONCEPTS: string[][] = [
  ['customer', 'client', 'buyer', 'shopper', 'consumer', 'patron'],
  ['price', 'cost', 'amount', 'fee', 'charge', 'payment', 'paid', 'pay', 'spent', 'spend'],
  ['date', 'time', 'day', 'when', 'timestamp', 'created', 'year', 'month'],
  ['name', 'title', 'label', 'called'],
  ['order', 'purchase', 'sale', 'invoice', 'transaction', 'bought', 'buy', 'sold'],
  ['product', 'item', 'article', 'goods', 'merchandise'],
  ['employee', 'staff', 'worker', 'manager'],
  ['city', 'town', 'country', 'address', 'location', 'place', 'region', 'where'],
  ['track', 'song', 'music', 'tune'],
  ['artist', 'singer', 'band', 'musician', 'composer'],
  ['student', 'pupil', 'learner'],
  ['count', 'quantity', 'many', 'number'],
];

/** Continuation pieces: letters and digits (so every ASCII word can be spelled) and suffixes. */
const SUFFIXES = `s es ed ing er ers est ly ion ions tion tions ment ments ness able ible al ial ic ical
ity ive ize ized ise ous ful less id ids ies ied ry ty cy an ian en ern ward wise like ship hood age ance ence
ant ent ist ists ism or ors ee ees`
  .split(/\s+/)
  .filter(Boolean);

const PUNCTUATION = Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const LETTERS = Array.from('abcdefghijklmnopqrstuvwxyz');
const DIGITS = Array.from('0123456789');

export function buildVocab(): string[] {
  const seen = new Set<string>();
  const vocab: string[] = [];
  const add = (t: string) => {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  };
  SPECIALS.forEach(add);
  PUNCTUATION.forEach(add);
  DIGITS.forEach(add);
  LETTERS.forEach(add);
  SCHEMA_WORDS.forEach(add);
  CONCEPTS.flat().forEach(add);
  // cl100k tokens that are a space plus lowercase letters: common words and word starts.
  let taken = 0;
  for (let id = 0; id < 100_000 && taken < COMMON_WORDS_WANTED; id++) {
    const t = decode([id]);
    if (/^ [a-z]{2,14}$/.test(t) && !seen.has(t.slice(1))) {
      add(t.slice(1));
      taken++;
    }
  }
  for (const p of [...LETTERS, ...DIGITS, ...SUFFIXES]) add(`##${p}`);
  return vocab;
}

// ---- deterministic vectors ----------------------------------------------------------------

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A pseudo-random vector in [-1, 1]^n seeded by a string (mulberry32 stream). */
function hashedVector(feature: string, n: number): Float64Array {
  let a = fnv1a(feature);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    v[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return v;
}

function unit(v: Float64Array): Float64Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  return n === 0 ? v : v.map((x) => x / n);
}

/** Character trigrams with word boundaries; a ## piece has no start boundary (it continues). */
function trigrams(token: string): string[] {
  const s = token.startsWith('##') ? `${token.slice(2)}>` : `<${token}>`;
  if (s.length <= 3) return [s];
  const out: string[] = [];
  for (let i = 0; i + 3 <= s.length; i++) out.push(s.slice(i, i + 3));
  return out;
}

const conceptOf = new Map<string, number>();
CONCEPTS.forEach((group, i) =>
  group.forEach((w) => {
    conceptOf.set(w, i);
    conceptOf.set(`${w}s`, i); // plurals join their singular's concept
  }),
);

export function tokenVector(token: string, n = TINY_HIDDEN_SIZE): Float64Array {
  // Special tokens are zero: [CLS]/[SEP] would otherwise add one shared direction to every text.
  if ((SPECIALS as readonly string[]).includes(token) && token !== '[UNK]') return new Float64Array(n);
  const v = new Float64Array(n);
  for (const g of trigrams(token))
    hashedVector(`tri:${g}`, n).forEach((x, i) => {
      v[i] += x;
    });
  const spelling = unit(v);
  const concept = conceptOf.get(token);
  if (concept === undefined) return spelling;
  const c = unit(hashedVector(`concept:${concept}`, n));
  return unit(spelling.map((x, i) => 0.55 * x + 0.85 * c[i]));
}

// ---- ONNX graphs ----------------------------------------------------------------------------

type Dim = string | number;
function valueInfo(name: string, elemType: number, dims: Dim[]) {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  };
}

const T = onnx.TensorProto.DataType;
const INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'].map((n) =>
  valueInfo(n, T.INT64, ['batch_size', 'sequence_length']),
);

function modelBytes(graph: OnnxTypes.IGraphProto): Uint8Array {
  return onnx.ModelProto.encode({
    irVersion: 8,
    producerName: 'dowser make-tiny-model',
    producerVersion: '1',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  }).finish();
}

function fp32Model(table: Float32Array, vocabSize: number, hidden: number): Uint8Array {
  return modelBytes({
    name: 'tiny_bert_fp32',
    // attention_mask and token_type_ids are accepted (transformers.js feeds them) but unused.
    input: INPUTS,
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch_size', 'sequence_length', hidden])],
    initializer: [
      { name: 'embeddings', dataType: T.FLOAT, dims: [vocabSize, hidden], rawData: new Uint8Array(table.buffer) },
    ],
    node: [
      {
        opType: 'Gather',
        input: ['embeddings', 'input_ids'],
        output: ['last_hidden_state'],
        name: 'embedding_lookup',
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
    ],
  });
}

/** Per-tensor symmetric uint8 quantisation, the shape a real q8 export has at its embedding. */
function q8Model(table: Float32Array, vocabSize: number, hidden: number): Uint8Array {
  let maxAbs = 0;
  for (const x of table) maxAbs = Math.max(maxAbs, Math.abs(x));
  const scale = Math.fround(maxAbs / 127);
  const q = new Uint8Array(table.length);
  for (let i = 0; i < table.length; i++) q[i] = Math.max(0, Math.min(255, Math.round(table[i] / scale) + 128));
  return modelBytes({
    name: 'tiny_bert_q8',
    input: INPUTS,
    output: [valueInfo('last_hidden_state', T.FLOAT, ['batch_size', 'sequence_length', hidden])],
    initializer: [
      { name: 'embeddings_q', dataType: T.UINT8, dims: [vocabSize, hidden], rawData: q },
      {
        name: 'embeddings_scale',
        dataType: T.FLOAT,
        dims: [],
        rawData: new Uint8Array(new Float32Array([scale]).buffer),
      },
      { name: 'embeddings_zero_point', dataType: T.UINT8, dims: [], rawData: new Uint8Array([128]) },
    ],
    node: [
      {
        opType: 'Gather',
        input: ['embeddings_q', 'input_ids'],
        output: ['gathered_q'],
        name: 'embedding_lookup',
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
      {
        opType: 'DequantizeLinear',
        input: ['gathered_q', 'embeddings_scale', 'embeddings_zero_point'],
        output: ['last_hidden_state'],
        name: 'dequantize',
      },
    ],
  });
}

// ---- tokenizer and configs -----------------------------------------------------------------

function tokenizerJson(vocab: string[]) {
  const id = (t: string) => vocab.indexOf(t);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((t) => ({
      id: id(t),
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

const TOKENIZER_CONFIG = {
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  model_max_length: 512,
  cls_token: '[CLS]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  unk_token: '[UNK]',
  mask_token: '[MASK]',
  clean_up_tokenization_spaces: true,
  tokenize_chinese_chars: true,
  strip_accents: null,
};

function configJson(vocabSize: number, hidden: number) {
  return {
    _name_or_path: `dowser/${TINY_MODEL_ID}`,
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: hidden,
    num_hidden_layers: 0,
    num_attention_heads: 1,
    intermediate_size: hidden,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: vocabSize,
    pad_token_id: 0,
    _comment: 'Generated by scripts/make-tiny-model.ts: a toy for tests, not a trained model.',
  };
}

export interface TinyModelFiles {
  [relativePath: string]: Uint8Array;
}

export function buildTinyModel(hidden = TINY_HIDDEN_SIZE): TinyModelFiles {
  const vocab = buildVocab();
  const table = new Float32Array(vocab.length * hidden);
  vocab.forEach((t, row) => table.set(tokenVector(t, hidden), row * hidden));
  const json = (o: unknown) => new TextEncoder().encode(`${JSON.stringify(o, null, 1)}\n`);
  return {
    'config.json': json(configJson(vocab.length, hidden)),
    'tokenizer.json': json(tokenizerJson(vocab)),
    'tokenizer_config.json': json(TOKENIZER_CONFIG),
    'onnx/model.onnx': fp32Model(table, vocab.length, hidden),
    'onnx/model_quantized.onnx': q8Model(table, vocab.length, hidden),
  };
}

export function writeTinyModel(outDir: string): { files: string[]; bytes: number } {
  const files = buildTinyModel();
  let bytes = 0;
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(dirname(join(outDir, rel)), { recursive: true });
    writeFileSync(join(outDir, rel), data);
    bytes += data.length;
  }
  return { files: Object.keys(files), bytes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? resolve(process.argv[i + 1]) : TINY_MODEL_DIR;
  const { files, bytes } = writeTinyModel(out);
  console.log(`tiny model: ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB in ${out}`);
}
