// fetch-models cannot reach the hub here; a fake fetch checks URLs, file layout and failures.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchModel, FetchModelError, fileUrl, modelFiles } from './fetch-models';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'dowser-fetch-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('fetch-models', () => {
  it('asks the hub URL pattern for the files transformers.js needs', () => {
    expect(fileUrl('https://huggingface.co/', 'Xenova/all-MiniLM-L6-v2', 'onnx/model_quantized.onnx')).toBe(
      'https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model_quantized.onnx',
    );
    expect(modelFiles('q8')).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model_quantized.onnx',
    ]);
    expect(modelFiles('both')).toContain('onnx/model.onnx');
  });

  it('writes <out>/<id>/<file> and skips files already there', async () => {
    const out = tmp();
    const asked: string[] = [];
    const fake = (async (url: string) => {
      asked.push(url);
      return new Response(`body of ${url.split('/main/')[1]}`);
    }) as typeof fetch;
    await fetchModel({ modelId: 'o/m', dtype: 'q8', outDir: out, fetch: fake, log: () => {} });
    expect(readFileSync(join(out, 'o/m/onnx/model_quantized.onnx'), 'utf8')).toBe('body of onnx/model_quantized.onnx');
    expect(asked).toHaveLength(4);
    await fetchModel({ modelId: 'o/m', dtype: 'q8', outDir: out, fetch: fake, log: () => {} });
    expect(asked).toHaveLength(4);
  });

  it('fails with a clear message offline and on a missing model, leaving no partial files', async () => {
    const out = tmp();
    const offline = (async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });
    }) as typeof fetch;
    await expect(
      fetchModel({ modelId: 'o/m', dtype: 'q8', outDir: out, fetch: offline, log: () => {} }),
    ).rejects.toThrow(/Cannot reach https:\/\/huggingface.co \(ENOTFOUND\)/);
    const missing = (async () => new Response('no', { status: 404 })) as typeof fetch;
    const err = await fetchModel({ modelId: 'o/m', dtype: 'q8', outDir: out, fetch: missing, log: () => {} }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(FetchModelError);
    expect(err.message).toMatch(/HTTP 404 \(no such model/);
    expect(existsSync(join(out, 'o/m/config.json'))).toBe(false);
    await expect(fetchModel({ modelId: '../etc', dtype: 'q8', outDir: out, fetch: missing })).rejects.toThrow(
      /Not a model id/,
    );
  });
});
