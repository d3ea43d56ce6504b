// The real transformers.js path (files, tokenizer, ONNX session, pooling) on the generated tiny
// model in src/test-fixtures/tiny-model (scripts/make-tiny-model.ts), with onnxruntime-node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cosine,
  embedCached,
  isEmbedderUnavailable,
  MemoryVectorCache,
  topKByCosine,
} from '../../core/retrieval/embedder';
import {
  createTransformersEmbedder,
  toUnavailable,
  type ModelLoadProgress,
  type TransformersEmbedder,
} from './embedder';
import { createNodeEmbedder } from './node';

const FIXTURES = resolve(__dirname, '../../test-fixtures');
const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe.each(['q8', 'fp32'] as const)('tiny model, %s', (dtype) => {
  let embedder: TransformersEmbedder;
  const loadEvents: ModelLoadProgress[] = [];

  beforeAll(async () => {
    embedder = await createNodeEmbedder({
      modelId: 'tiny-model',
      modelsDir: FIXTURES,
      dtype,
      onLoadProgress: (p) => loadEvents.push(p),
    });
  });
  afterAll(() => embedder?.dispose());

  it('loads with the configured id, hidden size and load progress', () => {
    expect(embedder.modelId).toBe('tiny-model');
    expect(embedder.dimensions).toBe(32);
    expect(embedder.dtype).toBe(dtype);
    const file = dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
    expect(loadEvents.some((p) => p.status === 'done' && p.file === file)).toBe(true);
    expect(loadEvents.at(-1)?.status).toBe('ready');
  });

  it('returns one unit vector per text, deterministically, in input order', async () => {
    const texts = ['customer name', 'Price of the order', '', 'Ünïcödé column_id', 'customer name'];
    const a = await embedder.embed(texts);
    const b = await embedder.embed([...texts].reverse());
    expect(a).toHaveLength(texts.length);
    for (const v of a) expect(v).toBeInstanceOf(Float32Array);
    for (const [i, v] of a.entries()) {
      expect(v).toHaveLength(32);
      if (texts[i] !== '') expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(norm(a[2])).toBe(0); // nothing but [CLS]/[SEP]: the toy's zero vector, not NaN
    expect(Array.from(a[4])).toEqual(Array.from(a[0]));
    expect(Array.from(b[0])).toEqual(Array.from(a[4]));
  });

  it('scores related texts above unrelated ones', async () => {
    const [customer, customers, client, price] = await embedder.embed(['customer', 'customers', 'client', 'price']);
    expect(cosine(customer, customers)).toBeGreaterThan(cosine(customer, price) + 0.3);
    expect(cosine(customer, client)).toBeGreaterThan(cosine(customer, price) + 0.3);
    const columns = [
      'invoices.total: amount paid',
      'customers.first_name',
      'tracks.milliseconds',
      'employees.hire_date',
    ];
    const vectors = await embedder.embed(columns);
    const [q] = await embedder.embed(['which clients']);
    expect(columns[topKByCosine(q, vectors, 1)[0].index]).toBe('customers.first_name');
  });

  it('embeds in batches with progress reaching the total', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `column ${i} of table t${i % 7}`);
    const progress: Array<[number, number]> = [];
    const vs = await embedder.embed(texts, { onProgress: (d, t) => progress.push([d, t]) });
    expect(vs).toHaveLength(70);
    expect(progress).toEqual([
      [0, 70],
      [32, 70],
      [64, 70],
      [70, 70],
    ]);
    expect(await embedder.embed([])).toEqual([]);
  });

  it('stops between batches when aborted', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const run = embedder.embed(texts, {
      signal: controller.signal,
      onProgress: (d) => {
        seen.push(d);
        if (d >= 32) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([0, 32]);
    await expect(embedder.embed(['x'], { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
  });

  it('works behind the vector cache', async () => {
    const cache = new MemoryVectorCache();
    const texts = ['orders.date', 'orders.total'];
    const first = await embedCached(embedder, cache, texts);
    const second = await embedCached(embedder, cache, texts);
    expect(second.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
  });
});

describe('no model', () => {
  it('fails fast with a not_found reason when the folder is missing', async () => {
    const t0 = performance.now();
    const err = await createNodeEmbedder({
      modelId: 'Xenova/all-MiniLM-L6-v2',
      modelsDir: '/nonexistent/models',
    }).catch((e) => e);
    expect(isEmbedderUnavailable(err)).toBe(true);
    expect(err.reason).toBe('not_found');
    expect(err.message).toMatch(/all-MiniLM-L6-v2.*\/nonexistent\/models.*models:fetch/);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('maps transformers.js failures (file missing, onnx missing, broken onnx) to reasons', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dowser-model-'));
    try {
      const { cpSync, writeFileSync } = await import('node:fs');
      const nothing = await createTransformersEmbedder({ modelId: 'm', localModelPath: dir, allowRemote: false }).catch(
        (e) => e,
      );
      expect(nothing).toMatchObject({ name: 'EmbedderUnavailableError', reason: 'not_found' });
      expect(nothing.message).toContain(dir);
      const nowhere = await createTransformersEmbedder({ modelId: 'm', allowRemote: false }).catch((e) => e);
      expect(nowhere).toMatchObject({ reason: 'not_found' });
      cpSync(join(FIXTURES, 'tiny-model'), join(dir, 'm'), { recursive: true });
      rmSync(join(dir, 'm/onnx/model.onnx'));
      const missing = await createTransformersEmbedder({
        modelId: 'm',
        localModelPath: dir,
        allowRemote: false,
        dtype: 'fp32',
        device: 'cpu',
      }).catch((e) => e);
      expect(missing).toMatchObject({ name: 'EmbedderUnavailableError', reason: 'not_found' });
      writeFileSync(join(dir, 'm/onnx/model.onnx'), 'not a protobuf');
      const broken = await createTransformersEmbedder({
        modelId: 'm',
        localModelPath: dir,
        allowRemote: false,
        dtype: 'fp32',
        device: 'cpu',
      }).catch((e) => e);
      expect(broken).toMatchObject({ name: 'EmbedderUnavailableError', reason: 'invalid_model' });
      // The factory still works after failures (the load queue is not stuck).
      const ok = await createTransformersEmbedder({
        modelId: 'm',
        localModelPath: dir,
        allowRemote: false,
        dtype: 'q8',
        device: 'cpu',
      });
      expect(ok.dimensions).toBe(32);
      await ok.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('classifies network and runtime errors', () => {
    const opts = { modelId: 'x/y', allowRemote: true };
    const offline = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    expect(toUnavailable(offline, opts).reason).toBe('network');
    expect(toUnavailable(new TypeError('Failed to fetch'), opts).reason).toBe('network');
    expect(
      toUnavailable(
        new Error('no available backend found. ERR: [wasm] TypeError: Failed to fetch dynamically imported module'),
        opts,
      ).reason,
    ).toBe('runtime');
    expect(toUnavailable(new SyntaxError(`Unexpected token '<', "<!doctype "... is not valid JSON`), opts).reason).toBe(
      'not_found',
    );
    expect(
      toUnavailable(Object.assign(new Error('Could not locate file'), { name: 'ModelFileNotFoundError' }), opts).reason,
    ).toBe('not_found');
  });
});

describe('bundled wasm files (the page)', () => {
  it('lets ORT import its glue from the bundled URL, never from a blob: URL the CSP refuses', async () => {
    const before = env.useWasmCache;
    const wasmPaths = { mjs: '/assets/ort-wasm-simd-threaded.asyncify.mjs', wasm: '/assets/ort.wasm' };
    try {
      const e = await createTransformersEmbedder({
        modelId: 'tiny-model',
        localModelPath: FIXTURES,
        allowRemote: false,
        wasmPaths,
        device: 'cpu',
      });
      await e.dispose();
      // transformers.js' wasm cache would swap wasmPaths.mjs for a blob: URL of the cached glue.
      expect(env.useWasmCache).toBe(false);
      expect(env.backends.onnx.wasm?.wasmPaths).toEqual(wasmPaths);
    } finally {
      env.useWasmCache = before;
    }
  });
});

describe('timing', () => {
  it('loads and embeds 500 texts (reported in the log)', async () => {
    const t0 = performance.now();
    const e = await createNodeEmbedder({ modelId: 'tiny-model', modelsDir: FIXTURES });
    const t1 = performance.now();
    const texts = Array.from(
      { length: 500 },
      (_, i) =>
        `table_${i % 40}.column_${i}: the ${['customer', 'price', 'order date', 'album title'][i % 4]} of row ${i}`,
    );
    await e.embed(texts);
    const t2 = performance.now();
    console.log(
      `tiny model (q8, onnxruntime-node): load ${(t1 - t0).toFixed(0)} ms, embed 500 texts ${(t2 - t1).toFixed(0)} ms`,
    );
    await e.dispose();
  });
});
