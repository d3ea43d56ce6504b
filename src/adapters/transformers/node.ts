// Node usage (CLI, tests): model files come from a local directory, run by onnxruntime-node's
// CPU backend. onnxruntime-node's install script is disabled in package.json, but that script
// only fetches optional CUDA files: the CPU binaries for linux/darwin/win32 ship inside the npm
// package, so no WASM fallback is needed in Node.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbedderUnavailableError } from '../../core/retrieval/embedder';
import {
  createTransformersEmbedder,
  type EmbedderDtype,
  type ModelLoadProgress,
  type TransformersEmbedder,
} from './embedder';

export const DEFAULT_MODEL_ID = 'Xenova/all-MiniLM-L6-v2';
/** `public/models/` of this repository: where `npm run models:fetch` stores files. */
export const DEFAULT_NODE_MODELS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../public/models');

export interface NodeEmbedderOptions {
  modelId?: string;
  /** Directory holding `<modelId>/config.json` etc. */
  modelsDir?: string;
  /** Download missing files from the model hub (into `cacheDir`). Default false: the CLI works offline. */
  allowRemote?: boolean;
  dtype?: EmbedderDtype;
  batchSize?: number;
  cacheDir?: string;
  onLoadProgress?(p: ModelLoadProgress): void;
}

export async function createNodeEmbedder(options: NodeEmbedderOptions = {}): Promise<TransformersEmbedder> {
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  const modelsDir = resolve(options.modelsDir ?? DEFAULT_NODE_MODELS_DIR);
  const allowRemote = options.allowRemote ?? false;
  // Checked here for a message that names the folder and the fix, before transformers.js looks.
  if (!allowRemote && !existsSync(join(modelsDir, modelId, 'config.json'))) {
    throw new EmbedderUnavailableError(
      'not_found',
      `The embedding model "${modelId}" was not found in "${modelsDir}" (no ${join(modelId, 'config.json')}). ` +
        'Run `npm run models:fetch` where internet is available, or pass another models folder.',
    );
  }
  return createTransformersEmbedder({
    modelId,
    localModelPath: modelsDir,
    allowRemote,
    device: 'cpu',
    dtype: options.dtype,
    batchSize: options.batchSize,
    cacheDir: options.cacheDir,
    onLoadProgress: options.onLoadProgress,
  });
}
