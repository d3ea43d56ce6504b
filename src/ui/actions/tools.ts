// The retrieval tools for the page: index building with progress (kept per database in the
// store), semantic column search through the embedding worker when a model loads, and single
// tool calls. The lexical indexes live in the database worker, the vectors in the embedding worker.
// Column descriptions (the glossary) go in at build time and again whenever they change.

import { describeError } from '../../core/errors';
import { QUESTION_WAITS_FOR_INDEXES_MS, type ToolsSummary, type WaitOptions } from '../../core/engine';
import type { ToolCallOutcome } from '../../core/tools/registry';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { descriptionsFor } from './glossary';
import { valueCellBudgetOf } from '../lib/app-settings';

const building = new Map<string, Promise<void>>();
const semanticReady = new Set<string>();
/** Per database: the queue of description updates, and of column embeddings (newest wins). */
const descriptionUpdates = new Map<string, Promise<void>>();
const semanticQueue = new Map<string, Promise<void>>();
const semanticGeneration = new Map<string, number>();

/** What the settings say of the indexes: their memory budget, and whether they are kept between visits. */
const indexSettings = () => {
  const { indexBudget, keepIndexes } = useApp.getState().settings;
  return { valueCellBudget: valueCellBudgetOf(indexBudget), keep: keepIndexes };
};

export function ensureTools(dbId: string): Promise<void> {
  const existing = building.get(dbId);
  if (existing) return existing;
  useApp.getState().setTools(dbId, { status: 'building', progress: null });
  // Progress messages travel on their own channel and can arrive after the result: once the
  // build has finished, a late one must not put the status back to "building".
  let finished = false;
  const job = descriptionsFor(dbId)
    .then((descriptions) =>
      getServices().engine.buildTools(dbId, { descriptions, ...indexSettings() }, (p) => {
        if (!finished) useApp.getState().setTools(dbId, { status: 'building', progress: p });
      }),
    )
    .finally(() => {
      finished = true;
    })
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

/**
 * After the descriptions changed: the indexes take them (the column index only), and the column
 * sentences are embedded again when semantic search is on. Nothing to do before the first build,
 * which reads the descriptions itself.
 */
export function refreshDescriptions(dbId: string): Promise<void> {
  const previous = descriptionUpdates.get(dbId) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const job = building.get(dbId);
      if (!job) return;
      await job;
      if (useApp.getState().tools[dbId]?.status !== 'ready') return;
      try {
        const summary = await getServices().engine.setDescriptions(dbId, await descriptionsFor(dbId));
        useApp.getState().setTools(dbId, { status: 'ready', progress: null, summary });
        const semantic = useApp.getState().tools[dbId]?.semantic?.status;
        if (semantic && semantic !== 'off' && semantic !== 'unavailable') void prepareSemantic(dbId, summary);
      } catch (e) {
        useApp
          .getState()
          .notify(
            'warning',
            `The search indexes did not take the new descriptions (${describeError(e)}); they will on the next rebuild.`,
          );
      }
    });
  descriptionUpdates.set(dbId, next);
  return next;
}

/** Embeds the column sentences of `summary`; calls run one after another and a newer one supersedes. */
function prepareSemantic(dbId: string, summary: ToolsSummary): Promise<void> {
  const generation = (semanticGeneration.get(dbId) ?? 0) + 1;
  semanticGeneration.set(dbId, generation);
  const current = () => semanticGeneration.get(dbId) === generation;
  const job = (semanticQueue.get(dbId) ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => (current() ? embedColumns(dbId, summary, current) : undefined));
  semanticQueue.set(dbId, job);
  return job;
}

async function embedColumns(dbId: string, summary: ToolsSummary, current: () => boolean): Promise<void> {
  const { embeddingModel, embeddingDownload } = useApp.getState().settings;
  const set = useApp.getState().setSemantic;
  if (!embeddingModel) {
    set(dbId, {
      status: 'off',
      message:
        'Semantic column search is off (no embedding model in Settings): column search matches words and their spellings.',
    });
    return;
  }
  set(dbId, { status: 'loading', modelId: embeddingModel, progress: 0 });
  const loaded = await getServices().embeddings.load(
    { modelId: embeddingModel, allowRemote: embeddingDownload },
    (p) => {
      if (p.status === 'total' && p.total)
        set(dbId, { status: 'loading', modelId: embeddingModel, progress: (p.loaded ?? 0) / p.total });
    },
  );
  if (!loaded.ok) {
    // Not on this site and no download allowed is the default, not a fault: said plainly, with the way to turn it on.
    const notHere = loaded.reason === 'not_found' && !embeddingDownload;
    set(dbId, {
      status: notHere ? 'off' : 'unavailable',
      modelId: embeddingModel,
      message: notHere
        ? `Semantic column search is off: the model ${embeddingModel} is not on this site, and downloading it is not allowed. Column search matches words and their spellings. To turn it on, tick "Download the model…" in Settings (or put the model under /models/).`
        : `Semantic column search is off: the model ${embeddingModel} could not be loaded (${loaded.reason}: ${loaded.message.replace(/\.?\s*$/, '')}). Column search matches words and their spellings.`,
    });
    return;
  }
  if (!current()) return;
  set(dbId, { status: 'indexing', modelId: loaded.modelId, progress: 0 });
  // Scores from vectors of old sentences would mislead while the new ones are made: lexical meanwhile.
  semanticReady.delete(dbId);
  try {
    await getServices().embeddings.indexColumns(dbId, summary.columnSentences, (done, total) =>
      set(dbId, { status: 'indexing', modelId: loaded.modelId, progress: total ? done / total : 1 }),
    );
    if (!current()) return;
    semanticReady.add(dbId);
    set(dbId, { status: 'ready', modelId: loaded.modelId });
  } catch (e) {
    set(dbId, {
      status: 'unavailable',
      modelId: loaded.modelId,
      message: `Embedding the columns failed: ${describeError(e)} Column search is lexical only.`,
    });
  }
}

export function forgetTools(dbId: string): void {
  building.delete(dbId);
  semanticReady.delete(dbId);
  descriptionUpdates.delete(dbId);
  semanticGeneration.set(dbId, (semanticGeneration.get(dbId) ?? 0) + 1);
  getServices().embeddings.forget(dbId);
}

/** The build is started (for its progress), not awaited: the engine bounds what a tool waits for it. */
export async function runTool(dbId: string, name: string, args: unknown): Promise<ToolCallOutcome> {
  void ensureTools(dbId).catch(() => undefined);
  let semantic: Float32Array | null = null;
  if (
    name === 'search_column' &&
    semanticReady.has(dbId) &&
    args &&
    typeof (args as { query?: unknown }).query === 'string'
  ) {
    semantic = await getServices()
      .embeddings.scores(dbId, (args as { query: string }).query)
      .catch(() => null);
  }
  return getServices().engine.callTool(dbId, name, args, semantic ? { semantic } : undefined);
}

/** Column statistics and inferred keys for Auto's grounded request. */
/** The build is started, not awaited: a large file's first request goes out with sampled values (issue 26). */
export async function groundingOf(dbId: string) {
  void ensureTools(dbId).catch(() => undefined);
  return getServices().engine.grounding(dbId, { waitMs: QUESTION_WAITS_FOR_INDEXES_MS });
}

/** With `waitMs` (a question being asked), names alone link when the indexes are not ready by then. */
export async function linkQuestion(dbId: string, question: string, options: WaitOptions = {}) {
  const build = ensureTools(dbId);
  if (options.waitMs === undefined) await build;
  else void build.catch(() => undefined);
  return getServices().engine.linkQuestion(dbId, question, options);
}
