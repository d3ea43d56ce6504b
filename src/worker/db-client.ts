// Main-thread side of the database worker. sql.js cannot interrupt a running statement, so a
// time limit or the Cancel button terminates the worker, starts a fresh one and reopens every
// database from the file kept here (a File handle or bytes). Pending calls then fail with 'timeout' or 'cancelled'.

import * as Comlink from 'comlink';
import { DowserError } from '../core/errors';
import type { DbEngine, OpenRequest, StatsOptions, ToolCallExtras, ToolsOptions, ToolsSummary } from '../core/engine';
import type { ColumnDescriptions } from '../core/retrieval/column-index';
import type { QuestionLink } from '../core/retrieval/linker';
import type { ToolCallOutcome } from '../core/tools/registry';
import type { ToolboxProgress } from '../core/tools/toolbox';
import type { ColumnStats, OpenReport, QueryOptions, QueryResult, Schema } from '../core/types';
import './error-transfer';

/** A started worker: a Comlink endpoint and a way to kill it. */
export interface SpawnedWorker {
  endpoint: Comlink.Endpoint;
  terminate(): void;
}

export interface RestartableEngineOptions {
  /** Limit for one query (and statistics), ms. The user can change it in settings. */
  queryTimeoutMs?: number;
  /** Called after the worker was replaced (so the UI can say "worker restarted"). */
  onRestart?: (reason: 'timeout' | 'cancelled') => void;
}

type Remote = Comlink.Remote<DbEngine>;

interface Pending {
  reject: (e: DowserError) => void;
}

export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

export class RestartableEngine implements DbEngine {
  private worker: SpawnedWorker;
  private remote: Remote;
  /** The bytes of every open database: the worker can die at any time. */
  private readonly opened = new Map<string, OpenRequest>();
  private readonly pending = new Set<Pending>();
  private readonly toolOptions = new Map<string, ToolsOptions>();
  /** Which worker instance holds each database's indexes. */
  private readonly toolsBuiltIn = new Map<string, SpawnedWorker>();
  private reopening: Promise<void> = Promise.resolve();
  queryTimeoutMs: number;

  constructor(
    private readonly spawn: () => SpawnedWorker,
    private readonly options: RestartableEngineOptions = {},
  ) {
    this.queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    this.worker = spawn();
    this.remote = Comlink.wrap<DbEngine>(this.worker.endpoint);
  }

  /** Runs a remote call; rejects when the worker is killed, or after `timeoutMs` (then kills it). */
  private call<T>(fn: (r: Remote) => Promise<T>, timeoutMs?: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { reject };
      this.pending.add(entry);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle = () => {
        this.pending.delete(entry);
        if (timer) clearTimeout(timer);
      };
      if (timeoutMs && timeoutMs > 0) {
        timer = setTimeout(() => {
          settle();
          reject(
            new DowserError(
              'timeout',
              `The query ran longer than the time limit (${(timeoutMs / 1000).toFixed(timeoutMs % 1000 ? 1 : 0)} s) and was stopped. Add a LIMIT or a WHERE filter, or raise the limit in settings.`,
            ),
          );
          void this.restart('timeout');
        }, timeoutMs);
      }
      this.reopening
        .then(() => fn(this.remote))
        .then(
          (v) => {
            if (this.pending.has(entry)) {
              settle();
              resolve(v);
            }
          },
          (e) => {
            if (this.pending.has(entry)) {
              settle();
              reject(e);
            }
          },
        );
    });
  }

  /** Stops whatever runs now. Open databases stay open (reopened from their bytes). */
  async cancel(): Promise<void> {
    await this.restart('cancelled');
  }

  private async restart(reason: 'timeout' | 'cancelled'): Promise<void> {
    const stale = [...this.pending];
    this.pending.clear();
    for (const p of stale) p.reject(new DowserError('cancelled', 'Cancelled: the query was stopped.'));
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
    this.worker = this.spawn();
    this.remote = Comlink.wrap<DbEngine>(this.worker.endpoint);
    const remote = this.remote;
    this.reopening = (async () => {
      for (const req of this.opened.values()) await remote.open(req).catch(() => undefined);
    })();
    await this.reopening;
    this.options.onRestart?.(reason);
  }

  /** The request (a File handle or bytes) is kept to reopen the database after a restart. */
  async open(request: OpenRequest, onProgress?: (fraction: number) => void): Promise<OpenReport> {
    const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
    const report = await this.call((r) => r.open(request, progress));
    this.opened.set(request.id, request);
    this.toolsBuiltIn.delete(request.id);
    return report;
  }

  check(id: string): Promise<OpenReport> {
    return this.call((r) => r.check(id), Math.max(this.queryTimeoutMs, 60_000));
  }

  async close(id: string): Promise<void> {
    this.opened.delete(id);
    this.toolOptions.delete(id);
    this.toolsBuiltIn.delete(id);
    await this.call((r) => r.close(id));
  }

  query(id: string, sql: string, options?: QueryOptions, timeoutMs = this.queryTimeoutMs): Promise<QueryResult> {
    return this.call((r) => r.query(id, sql, options), timeoutMs);
  }

  introspect(id: string): Promise<Schema> {
    return this.call((r) => r.introspect(id), Math.max(this.queryTimeoutMs, 60_000));
  }

  columnStats(id: string, table: string, column: string, options?: StatsOptions): Promise<ColumnStats> {
    return this.call((r) => r.columnStats(id, table, column, options), this.queryTimeoutMs);
  }

  /**
   * Index building reads every text column: it gets a long limit of its own. The options are
   * kept so a restarted worker (after a timeout) rebuilds the same indexes on the next call.
   */
  buildTools(id: string, options: ToolsOptions = {}, onProgress?: (p: ToolboxProgress) => void): Promise<ToolsSummary> {
    this.toolOptions.set(id, options);
    const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
    return this.call(
      async (r) => {
        const worker = this.worker;
        const summary = await r.buildTools(id, options, progress);
        this.toolsBuiltIn.set(id, worker);
        return summary;
      },
      Math.max(this.queryTimeoutMs, 10 * 60_000),
    );
  }

  /**
   * The descriptions join the kept options, so a worker restarted later rebuilds with them. A
   * worker that has the indexes swaps the column index only; a fresh one builds everything.
   */
  setDescriptions(id: string, descriptions: ColumnDescriptions): Promise<ToolsSummary> {
    this.toolOptions.set(id, { ...this.toolOptions.get(id), descriptions });
    return this.call(
      async (r) => {
        const worker = this.worker;
        const summary =
          this.toolsBuiltIn.get(id) === worker
            ? await r.setDescriptions(id, descriptions)
            : await r.buildTools(id, this.toolOptions.get(id)!);
        this.toolsBuiltIn.set(id, worker);
        return summary;
      },
      this.queryTimeoutMs + this.rebuildAllowanceMs(id),
    );
  }

  callTool(id: string, name: string, args: unknown, extras?: ToolCallExtras): Promise<ToolCallOutcome> {
    return this.call(
      async (r) => {
        await this.ensureTools(r, id);
        return r.callTool(id, name, args, extras);
      },
      this.queryTimeoutMs + this.rebuildAllowanceMs(id),
    );
  }

  linkQuestion(id: string, question: string): Promise<QuestionLink[]> {
    return this.call(
      async (r) => {
        await this.ensureTools(r, id);
        return r.linkQuestion(id, question);
      },
      this.queryTimeoutMs + this.rebuildAllowanceMs(id),
    );
  }

  /** After a restart the new worker has no indexes: rebuild them with the options last used. */
  private async ensureTools(r: Remote, id: string): Promise<void> {
    if (this.toolsBuiltIn.get(id) === this.worker) return;
    await r.buildTools(id, this.toolOptions.get(id) ?? {});
    this.toolsBuiltIn.set(id, this.worker);
  }

  private rebuildAllowanceMs(id: string): number {
    return this.toolsBuiltIn.get(id) === this.worker ? 0 : 10 * 60_000;
  }

  dispose(): void {
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
  }
}
