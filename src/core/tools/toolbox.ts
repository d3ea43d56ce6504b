// Everything the four tools need for one database, built once: column statistics, the distinct
// values and their index, the column index, inferred keys and the join graph, and (when a model
// loads) column embeddings. Runs wherever the database is: in the browser's database worker and
// in-process in the CLI and eval. Progress is reported per stage; work is cancellable. Column
// descriptions can change afterwards (withDescriptions) without redoing the expensive stages.

import { eventYielder, yieldToEvents } from '../yield';
import { DowserError } from '../errors';
import type { SqlExecutor } from '../executor';
import { ColumnIndex, type ColumnDescriptions } from '../retrieval/column-index';
import { DEFAULT_VALUE_CELL_BUDGET, extractValues, mayHoldText, valueTables } from '../retrieval/distinct-values';
import { cosine, embedCached, isEmbedderUnavailable, type Embedder, type VectorCache } from '../retrieval/embedder';
import { loadLexicon } from '../retrieval/lexicon';
import { linkQuestion, valueLinksOf, type QuestionLink } from '../retrieval/linker';
import type { JoinEdge } from '../retrieval/types';
import type { ValueColumns } from '../retrieval/value-columns';
import { type ValueIndex, ValueIndexBuilder } from '../retrieval/value-index';
import type { TokenizerWorkers } from '../retrieval/value-tokenizer';
import { inferForeignKeys } from '../schema/infer-keys';
import { buildJoinGraph, type JoinGraph } from '../schema/join-graph';
import { findUnmatchedKeys, keyLabel, type UnmatchedKey } from '../schema/key-health';
import { columnStats, isRowidAlias, rowidAliasStats } from '../schema/stats';
import type { ColumnInfo, ColumnStats, Schema, TableInfo } from '../types';
import { callTool, isToolName, toolContexts, type ToolCallOutcome } from './registry';
import type { ToolParts } from './tool-parts';
import { escapeControls } from '../prompt/schema-text';
import { statsSummary } from '../format/schema-text';
import { quoteData } from './quote-data';
import type { ColumnEvidence } from './sql-repair';
import type { Grounding } from '../prompt/grounded-schema';
import {
  fromSnapshot,
  snapshotOf,
  type TokenizedIn,
  type ToolboxSnapshot,
  type ToolboxStage,
} from './toolbox-snapshot';

export type { TokenizedIn, ToolboxStage } from './toolbox-snapshot';

export interface ToolboxProgress {
  stage: ToolboxStage;
  done: number;
  total: number;
}

export interface BuildToolboxOptions {
  descriptions?: ColumnDescriptions;
  embedder?: Embedder | null;
  vectorCache?: VectorCache | null;
  /** Tokenizing workers (the page's and the CLI's engines have them): used for large databases. */
  tokenizerWorkers?: TokenizerWorkers;
  /** Statistics for the index are computed on at most this many rows per table. */
  statsRowBudget?: number;
  /** Text cells the value index may hold (ExtractOptions.cellBudget); default DEFAULT_VALUE_CELL_BUDGET. */
  valueCellBudget?: number;
  /**
   * Statistics of a column the value read did not give, from the engine's own (a server's
   * pg_stats, issue 36) instead of SQL written for SQLite over its first rows.
   */
  columnStats?(table: TableInfo, column: ColumnInfo): Promise<ColumnStats>;
  onProgress?(p: ToolboxProgress): void;
  signal?: AbortSignal;
}

export interface Toolbox {
  schema: Schema;
  stats: Map<string, ColumnStats>;
  columns: ColumnIndex;
  values: ValueIndex;
  inferredKeys: JoinEdge[];
  graph: JoinGraph;
  mode: 'lexical' | 'hybrid';
  /** Why search is lexical only (no model configured, model failed to load), for the page. */
  semanticNote: string | null;
  /** Milliseconds per build stage. */
  timings: Partial<Record<ToolboxStage, number>>;
  /** Where the values were tokenized (a worker's failure is said, not hidden). */
  tokenizedIn: TokenizedIn;
  /** Made again from a kept snapshot (toolbox-snapshot.ts) instead of read from the tables. */
  reused: boolean;
  /** What the expensive stages made, as data to keep (see toolbox-snapshot.ts). */
  snapshot(): Omit<ToolboxSnapshot, 'content'>;
  call(
    name: string,
    args: unknown,
    signal?: AbortSignal,
    extras?: { semantic?: Float32Array | null },
  ): Promise<ToolCallOutcome>;
  link(question: string): QuestionLink[];
  /** What Auto's first request shows of the data: column statistics and the inferred keys. */
  grounding(): Promise<Grounding>;
  /**
   * The same toolbox with other column descriptions: rebuilds the column index and its sentences
   * only (plus their embeddings when a built-in model is used), in milliseconds.
   */
  withDescriptions(
    descriptions: ColumnDescriptions | undefined,
    options?: Pick<BuildToolboxOptions, 'onProgress' | 'signal'>,
  ): Promise<Toolbox>;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function checkAborted(signal?: AbortSignal) {
  if (signal?.aborted) throw new DowserError('cancelled', 'Building the search indexes was cancelled.');
}

export async function buildToolbox(
  exec: SqlExecutor,
  schema: Schema,
  options: BuildToolboxOptions = {},
): Promise<Toolbox> {
  const { onProgress, signal } = options;
  const timings: Toolbox['timings'] = {};
  const timed = async <T>(stage: ToolboxStage, work: () => Promise<T>): Promise<T> => {
    const t0 = now();
    try {
      return await work();
    } finally {
      timings[stage] = Math.round(now() - t0);
    }
  };

  // One read of every text value (stage 'values'); each distinct value and long text is
  // tokenized once (stage 'value-index'): in a worker while the tables are read when the
  // database is large enough and a worker can start, on this thread otherwise (decision 014).
  const workers = options.tokenizerWorkers;
  const port = workers && textCells(schema) >= workers.minCells ? workers.spawn() : null;
  const builder = new ValueIndexBuilder(port ? { tokenizer: port } : {});
  const indexValues = (b: ValueIndexBuilder) =>
    b.finish({ onProgress: (done, all) => onProgress?.({ stage: 'value-index', done, total: all }), signal });
  try {
    return await buildWith();
  } finally {
    builder.close();
  }

  async function buildWith(): Promise<Toolbox> {
    await timed('values', () => readValues(builder));
    const counted = builder.counted();
    // A worker goes on tokenizing while statistics and keys are computed here; this thread
    // tokenizes first. Stage timings do not overlap: 'value-index' is the time waited for it.
    const indexing = indexValues(builder);
    indexing.catch(() => undefined); // awaited below; failures there
    if (!port) await timed('value-index', () => indexing);
    const rest = await statisticsAndKeys(counted);
    let values: ValueIndex;
    let tokenizedIn: TokenizedIn = port ? 'worker' : 'engine';
    try {
      values = port ? await timed('value-index', () => indexing) : await indexing;
    } catch (e) {
      if (!port || (e instanceof DowserError && e.code === 'cancelled')) throw e;
      // The worker failed (it could not start, or died): read the values again, tokenize here.
      tokenizedIn = 'engine-after-worker-failed';
      const local = new ValueIndexBuilder();
      await timed('values', () => readValues(local));
      values = await timed('value-index', () => indexValues(local));
    }
    return assemble({ exec, schema, values, timings, tokenizedIn, ...rest }, options);
  }

  function readValues(b: ValueIndexBuilder): Promise<void> {
    return extractValues(exec, schema, b, {
      cellBudget: options.valueCellBudget ?? DEFAULT_VALUE_CELL_BUDGET,
      onProgress: (done, all) => onProgress?.({ stage: 'values', done, total: all }),
      signal,
    });
  }

  async function statisticsAndKeys(values: ValueColumns) {
    // Statistics feed value hints (SearchColumn) and what the model sees about each column. Text
    // columns, and numeric ones of the tables read, come from the values just read (every row,
    // exact); rowids from their b-tree's ends; the rest (dates, mixed, too many distinct numbers)
    // from SQL on a row budget.
    const readable = schema.tables.filter((t) => !t.error);
    const total = readable.reduce((n, t) => n + t.columns.length, 0);
    const stats = await timed('statistics', async () => {
      const out = new Map<string, ColumnStats>();
      let done = 0;
      // Each column's statistics can be a query over a large table: a query asked meanwhile
      // (the person's, a tool's) runs between them instead of after all of them.
      const pause = eventYielder();
      for (const t of readable) {
        for (const c of t.columns) {
          await pause();
          checkAborted(signal);
          try {
            const fromValues = t.kind === 'view' ? null : values.columnStats(t.name, c.name);
            out.set(
              `${t.name}.${c.name}`,
              fromValues ??
                (options.columnStats ? await options.columnStats(t, c) : null) ??
                ((await isRowidAlias(exec, t, c)) ? await rowidAliasStats(exec, t.name, c.name) : null) ??
                (await columnStats(exec, {
                  table: t.name,
                  column: c.name,
                  rowCount: t.rowCount,
                  rowBudget: options.statsRowBudget ?? 50_000,
                  signal,
                })),
            );
          } catch (e) {
            if (e instanceof DowserError && e.code === 'cancelled') throw e;
            // A column whose statistics fail (odd collation, damaged page) is still searchable by name.
          }
          onProgress?.({ stage: 'statistics', done: ++done, total });
        }
      }
      // Kept only for these statistics: the index does not hold them.
      values.forgetDates();
      return out;
    });
    await yieldToEvents();
    const inferredKeys = await timed('keys', async () => {
      onProgress?.({ stage: 'keys', done: 0, total: 1 });
      const keys = await inferForeignKeys(schema, exec, { signal });
      onProgress?.({ stage: 'keys', done: 1, total: 1 });
      return keys;
    });
    const graph = buildJoinGraph(schema, inferredKeys);
    // Declared keys whose values never meet get a warning wherever a join path uses them.
    await yieldToEvents();
    const unmatchedKeys = await findUnmatchedKeys(exec, graph.edges, { signal });
    return { stats, inferredKeys, graph, unmatchedKeys };
  }
}

/** Cells of the columns whose values are read, from the row counts of the schema. */
function textCells(schema: Schema): number {
  return valueTables(schema).reduce((n, t) => n + (t.rowCount ?? 0) * t.columns.filter(mayHoldText).length, 0);
}

/**
 * The toolbox made again from a snapshot of an earlier build of the same database (issue 26):
 * the column index, descriptions and embeddings are laid on top as after a build.
 */
export function toolboxFromSnapshot(
  exec: SqlExecutor,
  schema: Schema,
  snapshot: Omit<ToolboxSnapshot, 'content'>,
  options: AssembleOptions = {},
): Promise<Toolbox> {
  const parts = fromSnapshot(snapshot);
  return assemble({ exec, schema, ...parts, graph: buildJoinGraph(schema, parts.inferredKeys), reused: true }, options);
}

/** What the expensive stages produce; descriptions and embeddings are laid on top of it. */
interface ToolboxBase {
  exec: SqlExecutor;
  schema: Schema;
  stats: Map<string, ColumnStats>;
  values: ValueIndex;
  inferredKeys: JoinEdge[];
  graph: JoinGraph;
  unmatchedKeys: Map<string, UnmatchedKey>;
  timings: Toolbox['timings'];
  tokenizedIn: TokenizedIn;
  reused?: boolean;
}

type AssembleOptions = Pick<BuildToolboxOptions, 'descriptions' | 'embedder' | 'vectorCache' | 'onProgress' | 'signal'>;

/** What repair hints may cite about a column: its declared type and what its values look like. */
function columnEvidence(schema: Schema, stats: Map<string, ColumnStats>, keys: JoinEdge[]): ColumnEvidence {
  return {
    keys,
    describe(table, column) {
      const info = schema.tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
      if (!info) return null;
      const st = stats.get(`${table}.${column}`);
      const type = info.declaredType ? escapeControls(info.declaredType) : 'no type';
      return st ? `${type}; ${statsSummary(st, (v) => quoteData(v, 30))}` : type;
    },
  };
}

/** The column index (descriptions included), column embeddings and the tool contexts. */
async function assemble(base: ToolboxBase, options: AssembleOptions): Promise<Toolbox> {
  const { schema, stats, values, graph, exec } = base;
  const { onProgress, signal } = options;
  const timings: Toolbox['timings'] = { ...base.timings };
  const columns = ColumnIndex.build(schema, {
    stats,
    descriptions: options.descriptions,
    lexicon: await loadLexicon(),
  });

  let semanticNote: string | null = options.embedder
    ? null
    : 'No embedding model is configured: column search is lexical only.';
  let columnVectors: Float32Array[] | null = null;
  if (options.embedder) {
    const t0 = now();
    try {
      columnVectors = await embedCached(
        options.embedder,
        options.vectorCache ?? null,
        columns.columns.map((c) => c.sentence),
        {
          onProgress: (done, all) => onProgress?.({ stage: 'embeddings', done, total: all }),
          signal,
        },
      );
    } catch (e) {
      if (e instanceof DowserError && e.code === 'cancelled') throw e;
      semanticNote = `The embedding model could not be used (${isEmbedderUnavailable(e) ? e.reason : 'error'}: ${e instanceof Error ? e.message : String(e)}); column search is lexical only.`;
    } finally {
      timings.embeddings = Math.round(now() - t0);
    }
  }
  const embedder = columnVectors ? options.embedder! : null;

  const link = (question: string) => linkQuestion(question, schema, values);
  // What the tools may work with; each takes its part (Tool.contextOf).
  const parts: ToolParts = {
    schema,
    exec,
    columns,
    values,
    graph,
    unmatched: base.unmatchedKeys,
    evidence: columnEvidence(schema, stats, graph.edges),
    valueLinks: (query: string) => valueLinksOf(link(query)),
    semantic:
      embedder && columnVectors
        ? async (query: string, s?: AbortSignal) => {
            const [q] = await embedder.embed([query], { signal: s });
            return Float32Array.from(columnVectors!, (v) => cosine(q, v));
          }
        : undefined,
  };
  const contexts = toolContexts(parts);

  const toolbox: Toolbox = {
    schema,
    stats,
    columns,
    values,
    inferredKeys: base.inferredKeys,
    graph,
    timings,
    tokenizedIn: base.tokenizedIn,
    reused: base.reused ?? false,
    snapshot: () => snapshotOf(base),
    semanticNote,
    mode: embedder ? 'hybrid' : 'lexical',
    call: (name, args, s, extras) => {
      // Scores computed elsewhere (the page's embedding worker) replace the built-in semantic hook.
      const context =
        name === 'search_column' && extras?.semantic
          ? { ...contexts.search_column, semantic: async () => extras.semantic! }
          : isToolName(name)
            ? contexts[name]
            : undefined;
      return callTool(name, args, context, s);
    },
    link,
    grounding: async () => ({
      stats: [...stats.values()],
      inferredKeys: base.inferredKeys,
      descriptions: columns.columns.flatMap((c) =>
        c.description ? [{ table: c.table, column: c.column, text: c.description }] : [],
      ),
      unmatchedKeys: graph.edges.flatMap((e) => {
        const u = base.unmatchedKeys.get(keyLabel(e));
        return u && e.fromColumns.length === 1
          ? [
              {
                table: e.fromTable,
                column: e.fromColumns[0],
                childExamples: u.childExamples,
                parentExamples: u.parentExamples,
                ...(u.meetsAfter ? { meetsAfter: u.meetsAfter } : {}),
              },
            ]
          : [];
      }),
    }),
    async withDescriptions(descriptions, more = {}) {
      // Statistics, values and keys do not depend on descriptions: only the column index and its
      // sentences (and their vectors, mostly from the cache) are made again.
      // The first build's progress callback and signal are not carried over: they belong to it.
      const next = await assemble(base, {
        embedder: options.embedder,
        vectorCache: options.vectorCache,
        ...more,
        descriptions,
      });
      // A note set from outside (why the model did not load) still holds when the mode is the same.
      if (next.mode === toolbox.mode) next.semanticNote = toolbox.semanticNote;
      return next;
    },
  };
  return toolbox;
}
