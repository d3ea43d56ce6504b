// The interfaces core needs from its environment. Core receives implementations; it never
// imports sql.js, a Worker or the file system itself.

import type { ColumnDescriptions } from './retrieval/column-index';
import type { QuestionLink } from './retrieval/linker';
import type { ToolCallOutcome } from './tools/registry';
import type { ToolboxProgress, ToolboxStage } from './tools/toolbox';
import type { ColumnStats, OpenReport, QueryOptions, QueryResult, Schema } from './types';

/** Runs one read-only statement against one open database. */
export interface SqlExecutor {
  query(sql: string, options?: QueryOptions): Promise<QueryResult>;
}

export interface OpenRequest {
  /** Chosen by the caller so it can be reused when the engine restarts. */
  id: string;
  name: string;
  bytes: Uint8Array;
}

export interface StatsOptions {
  /** Above this many rows, statistics come from the first rows only and are marked approximate. */
  rowBudget?: number;
}

export interface ToolsOptions {
  descriptions?: ColumnDescriptions;
  /** Embedding model to try; null/undefined = lexical only. */
  embeddingModel?: EmbeddingModelConfig | null;
}

export interface EmbeddingModelConfig {
  modelId: string;
  /** Where model files come from: the hub (remote) or a self-hosted path. */
  allowRemote: boolean;
  localModelPath?: string;
  remoteHost?: string;
}

/** What the page and CLI show about the built tools (the indexes themselves stay where the database is). */
export interface ToolsSummary {
  mode: 'lexical' | 'hybrid';
  semanticNote: string | null;
  columnsIndexed: number;
  valuesIndexed: number;
  /** Columns whose values were sampled or are searched with LIKE, with the reason. */
  valuePolicies: Array<{ table: string; column: string; policy: string; note?: string }>;
  inferredKeys: number;
  timings: Partial<Record<ToolboxStage, number>>;
}

/**
 * Several open databases behind one transport: in-process (Node, tests) or a Web Worker
 * (browser). Every method is async so both transports share one contract and one test suite.
 */
export interface DbEngine {
  open(request: OpenRequest): Promise<OpenReport>;
  /** Integrity check (PRAGMA quick_check) and other findings; slower than open, so separate. */
  check(id: string): Promise<OpenReport>;
  close(id: string): Promise<void>;
  query(id: string, sql: string, options?: QueryOptions): Promise<QueryResult>;
  introspect(id: string): Promise<Schema>;
  columnStats(id: string, table: string, column: string, options?: StatsOptions): Promise<ColumnStats>;
  /** Builds (or rebuilds) the retrieval indexes of one database; progress per stage. */
  buildTools(id: string, options?: ToolsOptions, onProgress?: (p: ToolboxProgress) => void): Promise<ToolsSummary>;
  /** Runs one retrieval tool (building the indexes first if needed). Bad input is an outcome, not an exception. */
  callTool(id: string, name: string, args: unknown): Promise<ToolCallOutcome>;
  linkQuestion(id: string, question: string): Promise<QuestionLink[]>;
}

/** A DbEngine bound to one database, as core's schema and tool code consume it. */
export function executorFor(engine: Pick<DbEngine, 'query'>, id: string): SqlExecutor {
  return { query: (sql, options) => engine.query(id, sql, options) };
}
