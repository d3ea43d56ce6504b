/**
 * Downloads a small embedding model from the Hugging Face hub into `public/models/<id>/`, so
 * the app can self-host it (the page looks there before the hub) and the CLI can use it offline.
 *
 *   npm run models:fetch                                    # Xenova/all-MiniLM-L6-v2, q8 (~23 MB)
 *   npm run models:fetch -- --model Xenova/bge-small-en-v1.5 --dtype both
 *   options: --model <hub id>  --dtype q8|fp32|both  --out <dir>  --host <url>  --force
 *
 * Needs internet. Without it, it stops within seconds with a message instead of hanging.
 * Files are written as `<name>.part` and renamed when complete, so an interrupted run never
 * leaves a truncated model behind.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_MODEL = 'Xenova/all-MiniLM-L6-v2';
const CONNECT_TIMEOUT_MS = 10_000;

export type FetchDtype = 'q8' | 'fp32' | 'both';

export interface FetchModelOptions {
  modelId: string;
  dtype: FetchDtype;
  outDir: string;
  host?: string;
  force?: boolean;
  fetch?: typeof fetch;
  log?(line: string): void;
}

export class FetchModelError extends Error {}

/** The files transformers.js reads for a feature-extraction model: config, tokenizer and one ONNX graph. */
export function modelFiles(dtype: FetchDtype): string[] {
  const onnx = {
    q8: ['onnx/model_quantized.onnx'],
    fp32: ['onnx/model.onnx'],
    both: ['onnx/model_quantized.onnx', 'onnx/model.onnx'],
  }[dtype];
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', ...onnx];
}

export function fileUrl(host: string, modelId: string, file: string): string {
  return `${host.replace(/\/$/, '')}/${modelId}/resolve/main/${file}`;
}

export async function fetchModel(options: FetchModelOptions): Promise<{ dir: string; bytes: number }> {
  const { modelId, dtype, host = 'https://huggingface.co', force = false } = options;
  const fetchFn = options.fetch ?? fetch;
  const log = options.log ?? ((l: string) => console.log(l));
  if (!/^[\w.-]+(\/[\w.-]+)?$/.test(modelId) || modelId.includes('..'))
    throw new FetchModelError(`Not a model id: "${modelId}" (expected owner/name).`);
  const dir = join(options.outDir, modelId);
  let bytes = 0;

  for (const file of modelFiles(dtype)) {
    const target = join(dir, file);
    if (!force && existsSync(target)) {
      log(`  have  ${file} (${mb(statSync(target).size)})`);
      continue;
    }
    const url = fileUrl(host, modelId, file);
    let res: Response;
    try {
      // Only the wait for the response headers is limited; a big body may take its time.
      const connect = new AbortController();
      const timer = setTimeout(() => connect.abort(), CONNECT_TIMEOUT_MS);
      res = await fetchFn(url, { signal: connect.signal, redirect: 'follow' }).finally(() => clearTimeout(timer));
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
      throw new FetchModelError(
        `Cannot reach ${host} (${cause}). This needs internet; offline, the app runs column search lexical-only.`,
      );
    }
    if (!res.ok || !res.body) {
      throw new FetchModelError(
        `${url}: HTTP ${res.status}${res.status === 401 || res.status === 404 ? ' (no such model or file; check --model and --dtype)' : ''}`,
      );
    }
    mkdirSync(dirname(target), { recursive: true });
    const part = `${target}.part`;
    const total = Number(res.headers.get('content-length')) || 0;
    let loaded = 0;
    let shown = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        loaded += chunk.length;
        if (total && loaded - shown > total / 10) {
          shown = loaded;
          log(`        ${file} ${Math.round((100 * loaded) / total)}%`);
        }
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
        counter,
        createWriteStream(part),
      );
    } catch (e) {
      rmSync(part, { force: true });
      throw new FetchModelError(`Download of ${file} failed: ${(e as Error).message}`);
    }
    if (total && loaded !== total) {
      rmSync(part, { force: true });
      throw new FetchModelError(`${file}: got ${loaded} of ${total} bytes.`);
    }
    renameSync(part, target);
    bytes += loaded;
    log(`  got   ${file} (${mb(loaded)})`);
  }
  return { dir, bytes };
}

const mb = (n: number) => (n > 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(0)} kB`);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const modelId = arg('model') ?? DEFAULT_MODEL;
  const dtype = (arg('dtype') ?? 'q8') as FetchDtype;
  if (!['q8', 'fp32', 'both'].includes(dtype)) {
    console.error('--dtype must be q8, fp32 or both');
    process.exit(2);
  }
  const outDir = resolve(arg('out') ?? join(ROOT, 'public/models'));
  const host = arg('host') ?? process.env.HF_ENDPOINT ?? 'https://huggingface.co';
  console.log(`Fetching ${modelId} (${dtype}) from ${host} into ${outDir}`);
  fetchModel({ modelId, dtype, outDir, host, force: process.argv.includes('--force') }).then(
    ({ dir, bytes }) => console.log(`Done: ${dir} (${mb(bytes)} downloaded). The page and the CLI look here first.`),
    (e) => {
      console.error(`models:fetch: ${e instanceof FetchModelError ? e.message : e}`);
      process.exit(1);
    },
  );
}
