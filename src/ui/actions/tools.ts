// The retrieval tools for the page: index building with progress (kept per database in the
// store), semantic column search through the embedding worker when a model loads, and single
// tool calls. The lexical indexes live in the database worker, the vectors in the embedding worker.

import { describeError } from '../../core/errors';
import type { ToolsSummary } from '../../core/ports';
import type { ToolCallOutcome } from '../../core/tools/registry';
import { services } from '../services';
import { useApp } from '../store/app-store';

const building = new Map<string, Promise<void>>();
const semanticReady = new Set<string>();

export function ensureTools(dbId: string): Promise<void> {
  const existing = building.get(dbId);
  if (existing) return existing;
  useApp.getState().setTools(dbId, { status: 'building', progress: null });
  const job = services.engine
    .buildTools(dbId, {}, (p) => useApp.getState().setTools(dbId, { status: 'building', progress: p }))
    .then(
      (summary) => {
        useApp.getState().setTools(dbId, { status: 'ready', progress: null, summary });
        // Semantic search is a bonus on top of the lexical tools: it never delays them.
        void prepareSemantic(dbId, summary);
      },
      (e) => {
        building.delete(dbId);
        useApp.getState().setTools(dbId, { status: 'error', progress: null, error: describeError(e) });
      },
    );
  building.set(dbId, job);
  return job;
}

async function prepareSemantic(dbId: string, summary: ToolsSummary): Promise<void> {
  const { embeddingModel, embeddingDownload } = useApp.getState().settings;
  const set = useApp.getState().setSemantic;
  if (!embeddingModel) {
    set(dbId, { status: 'off', message: 'Semantic search is off (Settings): column search is lexical only.' });
    return;
  }
  set(dbId, { status: 'loading', modelId: embeddingModel, progress: 0 });
  const loaded = await services.embeddings.load({ modelId: embeddingModel, allowRemote: embeddingDownload }, (p) => {
    if (p.status === 'total' && p.total) set(dbId, { status: 'loading', modelId: embeddingModel, progress: (p.loaded ?? 0) / p.total });
  });
  if (!loaded.ok) {
    set(dbId, { status: 'unavailable', modelId: embeddingModel, message: `The embedding model could not be loaded (${loaded.reason}): ${loaded.message.replace(/\.?\s*$/, ".")} Column search is lexical only.` });
    return;
  }
  set(dbId, { status: 'indexing', modelId: loaded.modelId, progress: 0 });
  try {
    await services.embeddings.indexColumns(dbId, summary.columnSentences, (done, total) => set(dbId, { status: 'indexing', modelId: loaded.modelId, progress: total ? done / total : 1 }));
    semanticReady.add(dbId);
    set(dbId, { status: 'ready', modelId: loaded.modelId });
  } catch (e) {
    set(dbId, { status: 'unavailable', modelId: loaded.modelId, message: `Embedding the columns failed: ${describeError(e)} Column search is lexical only.` });
  }
}

export function forgetTools(dbId: string): void {
  building.delete(dbId);
  semanticReady.delete(dbId);
  services.embeddings.forget(dbId);
}

export async function runTool(dbId: string, name: string, args: unknown): Promise<ToolCallOutcome> {
  await ensureTools(dbId);
  let semantic: Float32Array | null = null;
  if (name === 'search_column' && semanticReady.has(dbId) && args && typeof (args as { query?: unknown }).query === 'string') {
    semantic = await services.embeddings.scores(dbId, (args as { query: string }).query).catch(() => null);
  }
  return services.engine.callTool(dbId, name, args, semantic ? { semantic } : undefined);
}

export async function linkQuestion(dbId: string, question: string) {
  await ensureTools(dbId);
  return services.engine.linkQuestion(dbId, question);
}
