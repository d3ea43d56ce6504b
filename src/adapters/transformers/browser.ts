// Browser usage (inside a Web Worker): onnxruntime-web's WASM files are bundled by Vite and
// served from this site (transformers.js would fetch them from a CDN otherwise). Model files
// are looked for under `<base>/models/<modelId>/` first (self-hosting, `npm run models:fetch`),
// then downloaded from the model hub if allowed; transformers.js keeps downloads in the
// browser's Cache Storage ('transformers-cache'), so they are fetched once.
//
// transformers.web.js imports 'onnxruntime-web/webgpu', whose loader expects the *asyncify*
// build: the .mjs glue and .wasm binary below must be that pair, from the same package.

import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import { EmbedderUnavailableError } from '../../core/retrieval/embedder';
import {
  createTransformersEmbedder,
  type EmbedderDevice,
  type EmbedderDtype,
  type ModelLoadProgress,
  type TransformersEmbedder,
} from './embedder';

export const ORT_WASM_PATHS = { mjs: ortMjsUrl, wasm: ortWasmUrl } as const;
export const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';

export interface BrowserEmbedderOptions {
  modelId?: string;
  /** May the model be downloaded from the model hub when it is not self-hosted? */
  allowRemote: boolean;
  /** URL path of self-hosted models; default `${import.meta.env.BASE_URL}models/`. */
  localModelPath?: string;
  dtype?: EmbedderDtype;
  device?: EmbedderDevice;
  batchSize?: number;
  onLoadProgress?(p: ModelLoadProgress): void;
  /** For tests. */
  fetch?: typeof fetch;
}

export async function createBrowserEmbedder(options: BrowserEmbedderOptions): Promise<TransformersEmbedder> {
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  const localModelPath = options.localModelPath ?? `${import.meta.env.BASE_URL}models/`;
  const local = await hasLocalModel(options.fetch ?? fetch, localModelPath, modelId);
  if (!local && !options.allowRemote) {
    throw new EmbedderUnavailableError(
      'not_found',
      `The embedding model "${modelId}" is not served under "${localModelPath}" and downloading models is off.`,
    );
  }
  return createTransformersEmbedder({
    modelId,
    // When the files are not self-hosted, do not let transformers.js look locally: see hasLocalModel.
    localModelPath: local ? localModelPath : undefined,
    allowRemote: options.allowRemote,
    wasmPaths: { ...ORT_WASM_PATHS },
    dtype: options.dtype ?? 'q8',
    device: options.device ?? 'wasm',
    batchSize: options.batchSize,
    onLoadProgress: options.onLoadProgress,
  });
}

/**
 * Is `<path><modelId>/config.json` really there? A single-page-app server (Vite dev and
 * preview included) answers a missing file with index.html and status 200, which
 * transformers.js would try to parse as JSON instead of falling back to the hub.
 */
export async function hasLocalModel(fetchFn: typeof fetch, localModelPath: string, modelId: string): Promise<boolean> {
  const base = localModelPath.endsWith('/') ? localModelPath : `${localModelPath}/`;
  try {
    const res = await fetchFn(`${base}${modelId}/config.json`, { cache: 'no-cache' });
    if (!res.ok || /text\/html/i.test(res.headers.get('content-type') ?? '')) return false;
    const config = (await res.json()) as { model_type?: unknown };
    return typeof config.model_type === 'string';
  } catch {
    return false;
  }
}
