// Embedder over transformers.js (feature-extraction pipeline, mean pooling, L2 normalised).
// Environment-neutral: node.ts and browser.ts decide where files come from and which ONNX
// runtime files to use, then call createTransformersEmbedder.
//
// transformers.js keeps its settings in one global `env` object that is read while a model
// loads, so factories run one at a time (`loadChain`); after loading, embedders are independent.

import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import {
  EmbedderUnavailableError,
  type EmbedProgressOptions,
  type Embedder,
  type EmbedderUnavailableReason,
} from '../../core/retrieval/embedder';

export type EmbedderDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4';
/** 'cpu' = onnxruntime-node (Node); 'wasm' / 'webgpu' = onnxruntime-web (browser). */
export type EmbedderDevice = 'cpu' | 'wasm' | 'webgpu';

/** Model file loading progress, simplified from transformers.js' progress events. */
export interface ModelLoadProgress {
  status: 'initiate' | 'download' | 'progress' | 'done' | 'ready' | 'total';
  /** File inside the model directory (absent for 'ready' and 'total'). */
  file?: string;
  /** Bytes loaded and expected ('progress' per file, 'total' over all files). */
  loaded?: number;
  total?: number;
}

export interface TransformersEmbedderOptions {
  /** Hub id ("Xenova/all-MiniLM-L6-v2") or a directory name under `localModelPath`. */
  modelId: string;
  /** Directory (Node) or URL path (browser) holding `<modelId>/config.json`; omit to skip local files. */
  localModelPath?: string;
  /** May files be downloaded from the model hub? */
  allowRemote: boolean;
  /** onnxruntime-web's .mjs/.wasm URLs, served locally; transformers.js defaults to a CDN otherwise. */
  wasmPaths?: { mjs: string; wasm: string };
  /** Which ONNX file: 'q8' = onnx/model_quantized.onnx, 'fp32' = onnx/model.onnx. Default 'q8'. */
  dtype?: EmbedderDtype;
  device?: EmbedderDevice;
  /** Texts per model call. Larger batches are faster per text but pad more and block longer. */
  batchSize?: number;
  /** Where downloaded files are cached on disk (Node only). */
  cacheDir?: string;
  onLoadProgress?(p: ModelLoadProgress): void;
}

export interface TransformersEmbedder extends Embedder {
  readonly dtype: EmbedderDtype;
  /** Frees the ONNX session. */
  dispose(): Promise<void>;
}

export const DEFAULT_BATCH_SIZE = 32;

let loadChain: Promise<unknown> = Promise.resolve();

export function createTransformersEmbedder(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  const run = loadChain.then(() => load(options));
  loadChain = run.catch(() => undefined);
  return run;
}

async function load(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
  const { modelId, localModelPath, allowRemote, dtype = 'q8', device, batchSize = DEFAULT_BATCH_SIZE } = options;
  if (!localModelPath && !allowRemote) {
    throw new EmbedderUnavailableError(
      'not_found',
      `No embedding model: no local model folder was given and downloading is off.`,
    );
  }
  env.allowLocalModels = Boolean(localModelPath);
  if (localModelPath) env.localModelPath = localModelPath.endsWith('/') ? localModelPath : `${localModelPath}/`;
  env.allowRemoteModels = allowRemote;
  if (options.cacheDir) env.cacheDir = options.cacheDir;
  // Mutate the shared wasm settings object in place: env.backends.onnx is a shallow copy of ORT's env.
  const wasm = env.backends.onnx.wasm;
  if (options.wasmPaths && wasm) wasm.wasmPaths = { ...options.wasmPaths };
  // ORT then imports its glue from that URL. transformers.js' wasm cache would import it from a
  // blob: URL instead, which the CSP refuses (decision 071); the service worker keeps both files.
  if (options.wasmPaths) env.useWasmCache = false;

  let extractor: FeatureExtractionPipeline;
  let dimensions: number;
  try {
    extractor = await pipeline('feature-extraction', modelId, {
      dtype,
      ...(device ? { device } : {}),
      progress_callback: options.onLoadProgress ? forwardProgress(options.onLoadProgress) : undefined,
    });
    // One real call: a model that loads but cannot run should fail here, not in the first search.
    const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: true });
    dimensions = probe.dims[probe.dims.length - 1];
    probe.dispose();
  } catch (e) {
    throw toUnavailable(e, options);
  }

  return {
    modelId,
    dimensions,
    dtype,
    dispose: () => extractor.dispose(),
    embed: (texts, opts) => embedBatched(extractor, dimensions, batchSize, texts, opts),
  };
}

async function embedBatched(
  extractor: FeatureExtractionPipeline,
  dims: number,
  batchSize: number,
  texts: string[],
  opts: EmbedProgressOptions = {},
): Promise<Float32Array[]> {
  const total = texts.length;
  const out = new Array<Float32Array>(total);
  // Similar lengths in one batch pad less; results go back to input order.
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length || a - b);
  opts.onProgress?.(0, total);
  for (let start = 0; start < total; start += batchSize) {
    opts.signal?.throwIfAborted();
    const idx = order.slice(start, start + batchSize);
    const tensor = await extractor(
      idx.map((i) => texts[i]),
      { pooling: 'mean', normalize: true },
    );
    const data =
      tensor.data instanceof Float32Array ? tensor.data : Float32Array.from(tensor.data as ArrayLike<number>);
    idx.forEach((textIndex, row) => {
      const v = data.slice(row * dims, (row + 1) * dims);
      // An input whose tokens all embed to zero normalises to NaN (0/0); report it as the zero vector.
      if (Number.isNaN(v[0])) v.fill(0);
      out[textIndex] = v;
    });
    tensor.dispose();
    opts.onProgress?.(Math.min(start + batchSize, total), total);
  }
  opts.signal?.throwIfAborted();
  return out;
}

function forwardProgress(cb: (p: ModelLoadProgress) => void) {
  return (p: { status: string; file?: string; loaded?: number; total?: number }) => {
    const status = p.status === 'progress_total' ? 'total' : p.status;
    if (!['initiate', 'download', 'progress', 'done', 'ready', 'total'].includes(status)) return;
    cb({ status: status as ModelLoadProgress['status'], file: p.file, loaded: p.loaded, total: p.total });
  };
}

/** Maps whatever transformers.js / onnxruntime threw to a reason the page can explain. */
export function toUnavailable(
  e: unknown,
  options: Pick<TransformersEmbedderOptions, 'modelId' | 'localModelPath' | 'allowRemote'>,
): EmbedderUnavailableError {
  const err = e instanceof Error ? e : new Error(String(e));
  const text = `${err.name}: ${err.message} ${String((err as { cause?: { code?: string } }).cause?.code ?? '')}`;
  const where = options.localModelPath ? ` in "${options.localModelPath}"` : '';
  const model = `embedding model "${options.modelId}"`;
  let reason: EmbedderUnavailableReason;
  let message: string;
  if (/no available backend|\[wasm\]|\.wasm\b/i.test(text) && err.name !== 'ModelFileNotFoundError') {
    reason = 'runtime';
    message = `The ONNX runtime could not start for the ${model}: ${err.message}`;
  } else if (err.name === 'ModelFileNotFoundError' || /could not locate file|not found locally|404/i.test(text)) {
    reason = 'not_found';
    message = options.allowRemote
      ? `The ${model} was not found${where} nor on the model hub: ${err.message}`
      : `The ${model} was not found${where} and downloading is off: ${err.message}`;
  } else if (
    /fetch failed|failed to fetch|networkerror|network error|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT|ECONNRESET/i.test(
      text,
    )
  ) {
    reason = 'network';
    message = `The ${model} could not be downloaded (offline or blocked): ${err.message}`;
  } else if (err instanceof SyntaxError) {
    // Typically a web server answering a missing file with its index.html.
    reason = 'not_found';
    message = `The ${model} files${where} are not valid JSON (is the folder missing, with the server returning a page instead?): ${err.message}`;
  } else {
    reason = 'invalid_model';
    message = `The ${model} could not be loaded as a feature-extraction model: ${err.message}`;
  }
  return new EmbedderUnavailableError(reason, message, { cause: e });
}
