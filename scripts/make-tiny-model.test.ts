import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTinyModel, buildVocab, TINY_MODEL_DIR, tokenVector } from './make-tiny-model';

describe('make-tiny-model', () => {
  const files = buildTinyModel();

  it('is deterministic and the committed fixture is up to date (run `npm run models:tiny` if not)', () => {
    const again = buildTinyModel();
    for (const [rel, bytes] of Object.entries(files)) {
      expect(Buffer.compare(Buffer.from(again[rel]), Buffer.from(bytes)), rel).toBe(0);
      expect(
        Buffer.compare(readFileSync(join(TINY_MODEL_DIR, rel)), Buffer.from(bytes)),
        `${rel} differs from the fixture`,
      ).toBe(0);
    }
  });

  it('has the files transformers.js asks for and stays small', () => {
    expect(Object.keys(files).sort()).toEqual([
      'config.json',
      'onnx/model.onnx',
      'onnx/model_quantized.onnx',
      'tokenizer.json',
      'tokenizer_config.json',
    ]);
    const total = Object.values(files).reduce((s, b) => s + b.length, 0);
    expect(total).toBeLessThan(1024 * 1024);
  });

  it('has a WordPiece vocabulary with BERT specials first and schema words whole', () => {
    const vocab = buildVocab();
    expect(vocab.slice(0, 5)).toEqual(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
    expect(vocab.length).toBeGreaterThan(2000);
    expect(new Set(vocab).size).toBe(vocab.length);
    for (const w of ['table', 'column', 'customer', 'price', 'date', 'id', '##s', '##ing', '##z', '_'])
      expect(vocab).toContain(w);
  });

  it('gives related words related vectors', () => {
    const cos = (a: Float64Array, b: Float64Array) => a.reduce((s, x, i) => s + x * b[i], 0);
    const v = (w: string) => tokenVector(w);
    expect(cos(v('customer'), v('customers'))).toBeGreaterThan(0.6);
    expect(cos(v('customer'), v('client'))).toBeGreaterThan(0.5);
    expect(Math.abs(cos(v('customer'), v('price')))).toBeLessThan(0.35);
    expect(cos(v('[CLS]'), v('[CLS]'))).toBe(0);
  });
});
