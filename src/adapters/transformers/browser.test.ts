// The browser adapter's own logic, in Node: the local-model probe and the wasm file URLs.
// The full path in Chromium is exercised by the e2e suite.
import { describe, expect, it } from 'vitest';
import { createBrowserEmbedder, hasLocalModel, ORT_WASM_PATHS } from './browser';

const respond =
  (body: string, contentType: string, status = 200) =>
  async () =>
    new Response(body, { status, headers: { 'content-type': contentType } });

describe('hasLocalModel', () => {
  it('accepts a served config.json', async () => {
    expect(await hasLocalModel(respond('{"model_type":"bert"}', 'application/json'), '/models/', 'a/b')).toBe(true);
  });

  it('rejects the index.html a single-page-app server sends for a missing file', async () => {
    expect(await hasLocalModel(respond('<!doctype html><html></html>', 'text/html'), '/models/', 'a/b')).toBe(false);
    expect(await hasLocalModel(respond('<!doctype html>', 'application/octet-stream'), '/models/', 'a/b')).toBe(false);
  });

  it('rejects 404s, JSON that is not a model config and network failures', async () => {
    expect(await hasLocalModel(respond('nope', 'text/plain', 404), '/models/', 'a/b')).toBe(false);
    expect(await hasLocalModel(respond('{"x":1}', 'application/json'), '/models/', 'a/b')).toBe(false);
    expect(
      await hasLocalModel(
        async () => {
          throw new TypeError('Failed to fetch');
        },
        '/models/',
        'a/b',
      ),
    ).toBe(false);
  });

  it('asks for <path>/<id>/config.json', async () => {
    const urls: string[] = [];
    await hasLocalModel(
      async (u) => {
        urls.push(String(u));
        return new Response('{}');
      },
      '/base/models',
      'Xenova/m',
    );
    expect(urls).toEqual(['/base/models/Xenova/m/config.json']);
  });
});

describe('createBrowserEmbedder', () => {
  it('fails with not_found when the model is not self-hosted and downloads are off', async () => {
    const err = await createBrowserEmbedder({ allowRemote: false, fetch: respond('<html>', 'text/html') }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ name: 'EmbedderUnavailableError', reason: 'not_found' });
    expect(err.message).toMatch(/Xenova\/all-MiniLM-L6-v2.*\/models\/.*downloading models is off/);
  });

  it('points onnxruntime-web at locally bundled asyncify files, never a CDN', () => {
    expect(ORT_WASM_PATHS.wasm).toMatch(/ort-wasm-simd-threaded\.asyncify\.wasm$/);
    expect(ORT_WASM_PATHS.mjs).toMatch(/ort-wasm-simd-threaded\.asyncify\.mjs$/);
    for (const url of Object.values(ORT_WASM_PATHS)) expect(url).not.toMatch(/^https?:/);
  });
});
