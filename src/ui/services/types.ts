// What the page's code may use of the services. Components get them from ServicesProvider
// (useServices), actions from the same binding (getServices); tests provide fakes of this shape.

import type { ColumnRanks } from '../../core/results/row-view';
import type { SqlValue } from '../../core/types';
import type { ReloadHandoff } from '../lib/reload-handoff';
import type { SavedEvaluations } from '../lib/saved-evaluations';
import type { QueryClient } from '@tanstack/react-query';
import type { DbEngine } from '../../core/engine';
import type { ServedSession } from '../../core/remote/http-engine';
import type { ChatModel } from '../../core/llm/types';
import type { StreamLimits } from '../../core/llm/stream-guard';
import type { EmbedClient } from '../../worker/embed-client';
import type { FileParsers } from '../../worker/parse-client';
import type { AskControllers } from '../lib/ask-controller';
import type { ExamplesStore } from '../lib/examples-store';
import type { GlossaryStore } from '../lib/glossary-store';
import type { ModelSettings } from '../lib/model-settings';
import type { RecentFiles } from '../lib/recent-files';
import type { RunHistory } from '../lib/run-history';

export interface PageEngine extends DbEngine {
  /**
   * Stops what runs for `dbId`: in the database worker (it restarts; its databases reopen), or,
   * for a database served by dowser serve, there. Without an id, everything.
   */
  cancel(dbId?: string): Promise<void>;
  /** Calls for `id` go to dowser serve with this session from now on (issue 36). */
  attachServed(id: string, session: ServedSession): void;
  isServed(id: string): boolean;
  /** Time limit of a query, from Settings. */
  queryTimeoutMs: number;
}

export type Embeddings = Pick<EmbedClient, 'load' | 'indexColumns' | 'scores' | 'forget'>;

export type { RestartReason } from '../../worker/db-client';
import type { RestartReason } from '../../worker/db-client';

export interface Services {
  engine: PageEngine;
  embeddings: Embeddings;
  queryClient: QueryClient;
  recentFiles: RecentFiles;
  runHistory: RunHistory;
  examples: ExamplesStore;
  glossary: GlossaryStore;
  /** Run control per database (stop, the person's answers). */
  asks: AskControllers;
  /**
   * The model the settings name (in-browser models report their download through onLoadProgress).
   * `onSend` sees each request body before it goes out and may hold or cancel it (Show prompt).
   */
  /** `limits`: how long a request may wait on the server (the page's setting: streamLimitsOf). */
  createChatModel(
    settings: ModelSettings,
    onLoadProgress?: (text: string) => void,
    onSend?: (request: OutgoingRequest) => Promise<boolean>,
    limits?: StreamLimits,
  ): Promise<ChatModel>;
  setRestartListener(fn: (reason: RestartReason) => void): void;
  /** Can this browser run a model in the page (WebGPU with an adapter)? Asked on the spot. */
  checkWebGpu(): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** The chart drawer (Observable Plot), loaded when the first chart is shown. */
  loadCharts(): Promise<ChartDrawer>;
  /** The last evaluation of each database file (lib/saved-evaluations.ts). */
  savedEvaluations: SavedEvaluations;
  /** The open files kept across a reload the page asks for (lib/reload-handoff.ts). */
  reloadHandoff: ReloadHandoff;
  /** Removes the search indexes kept in this browser for the next opening of a file (issue 26). */
  forgetKeptIndexes(): Promise<void>;
  /** A large result's column ranked for sorting, in a worker (core/results/row-view.ts `rankColumn`). */
  rankColumn(values: SqlValue[]): Promise<ColumnRanks>;
  /** Imported files (a saved run, a question file, description CSVs) parsed in a worker (worker/parse-client.ts). */
  parseFiles: FileParsers;
}

/** Draws core's chart points as SVG, and makes the standalone file (adapters/plot/draw-chart.ts). */
export type ChartDrawer = typeof import('../../adapters/plot/draw-chart');

/** A request to a model server as the page is about to send it. */
export interface OutgoingRequest {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  /** The body exactly as it goes out. */
  body: string;
}
