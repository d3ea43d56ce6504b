// Main-thread side of the database worker. sql.js cannot interrupt a running statement, so a
// time limit or the Cancel button terminates the worker, starts a fresh one and reopens every
// database from the file kept here (a File handle, bytes or a path). Pending calls then fail
// with 'timeout' or 'cancelled', and their time-limit timers are cleared: a timer left behind
// would later kill whatever the new worker runs then. The worker is also replaced when its
// WebAssembly heap grew past a limit (a zeroblob(1e9) leaves 1 GB behind: wasm memory never
// shrinks) and when it died.

import { DEFAULT_QUERY_TIMEOUT_MS } from '../core/db/query-timeout';
import { TOOL_WAITS_FOR_INDEXES_MS } from '../core/engine';
import * as Comlink from 'comlink';
import { DowserError } from '../core/errors';
import type {
  CellAddress,
  DbEngine,
  KeepProgress,
  KeptState,
  OpenRequest,
  SchemaRequest,
  StatsOptions,
  ToolCallExtras,
  ToolsOptions,
  ToolsSummary,
  WaitOptions,
  WholeValue,
} from '../core/engine';
import type { ColumnDescriptions } from '../core/retrieval/column-index';
import { DEFAULT_INTROSPECT_BUDGET_MS } from '../core/schema/introspect';
import type { QuestionLink } from '../core/retrieval/linker';
import type { Grounding } from '../core/prompt/grounded-schema';
import type { ToolCallOutcome } from '../core/tools/registry';
import type { ToolboxProgress } from '../core/tools/toolbox';
import type { ColumnStats, OpenReport, QueryOptions, QueryResult, Schema } from '../core/types';
import './error-transfer';

/** A started worker: a Comlink endpoint and a way to kill it. */
export interface SpawnedWorker {
  endpoint: Comlink.Endpoint;
  terminate(): void;
  /** Calls `listener` once if the worker dies on its own (crash, out of memory). */
  onDeath?(listener: (why: string) => void): void;
  /** Node: keep the process alive while calls are pending (true), let it exit when idle (false). */
  hold?(busy: boolean): void;
}

export type RestartReason = 'timeout' | 'cancelled' | 'memory' | 'crashed';

export interface RestartableEngineOptions {
  /** Limit for one query (and statistics), ms. The user can change it in settings. */
  queryTimeoutMs?: number;
  /** Called after the worker was replaced (so the UI can say "worker restarted"). */
  onRestart?: (reason: RestartReason) => void;
  /** Heap size of the worker's SQLite above which it is replaced once idle (default 256 MiB). */
  heapLimitBytes?: number;
  /** How the person raises the limit, for the time-out message (the page: settings; the CLI: --timeout). */
  raiseLimitHint?: string;
}

type Remote = Comlink.Remote<DbEngine>;

interface Pending {
  reject: (e: DowserError) => void;
  timer?: ReturnType<typeof setTimeout>;
}

export { DEFAULT_QUERY_TIMEOUT_MS };
export const DEFAULT_HEAP_LIMIT_BYTES = 256 * 1024 * 1024;
/**
 * What one slice of the schema may take beyond its budget (a view's count runs its whole query;
 * past this the slice is read again without view counts). The page's own read: the person's
 * query limit, which may be a few seconds, does not apply.
 */
export const SCHEMA_READ_LIMIT_MS = 15_000;

const limitText = (ms: number) => `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`;

const closedError = () => new DowserError('cancelled', 'Stopped: the database engine was closed.');

export class RestartableEngine implements DbEngine {
  /** Builds under way by database (started by buildTools), with the worker they run in. */
  private readonly builds = new Map<string, { worker: SpawnedWorker; done: Promise<unknown> }>();
  private worker: SpawnedWorker;
  private remote: Remote;
  /** The bytes of every open database: the worker can die at any time. */
  private readonly opened = new Map<string, OpenRequest>();
  private readonly pending = new Set<Pending>();
  private readonly toolOptions = new Map<string, ToolsOptions>();
  /** Databases read where they lie (not copied into memory): checked in a worker of their own. */
  private readonly readInPlace = new Set<string>();
  /** Workers started for one integrity check each, ended with it (or with this engine). */
  private readonly asides = new Set<SpawnedWorker>();
  /** Which worker instance holds each database's indexes. */
  private readonly toolsBuiltIn = new Map<string, SpawnedWorker>();
  private reopening: Promise<void> = Promise.resolve();
  /** Settles once the last timed call was sent to the worker (see call). */
  private lastSent: Promise<void> = Promise.resolve();
  private disposed = false;
  /** Set while a heap check is under way, so calls finishing together ask once. */
  private checkingHeap = false;
  /** The heap index building left in the current worker (see builtIn). */
  private buildHeapBytes = 0;
  queryTimeoutMs: number;
  heapLimitBytes: number;

  constructor(
    private readonly spawn: () => SpawnedWorker,
    private readonly options: RestartableEngineOptions = {},
  ) {
    this.queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    this.heapLimitBytes = options.heapLimitBytes ?? DEFAULT_HEAP_LIMIT_BYTES;
    this.worker = this.start();
    this.remote = Comlink.wrap<DbEngine>(this.worker.endpoint);
  }

  /** Resolves when the current worker is terminated: a dead worker's calls never settle otherwise. */
  private gone: Promise<void> = Promise.resolve();
  private markGone: () => void = () => {};

  private start(): SpawnedWorker {
    const worker = this.spawn();
    this.gone = new Promise((resolve) => (this.markGone = resolve));
    worker.onDeath?.((why) => {
      if (worker === this.worker && !this.disposed) void this.restart('crashed', why);
    });
    return worker;
  }

  private stop(): void {
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
    this.markGone();
  }

  /**
   * Runs a remote call; rejects when the worker is killed, or after `timeoutMs` (then kills it).
   * A call rejected by a restart never reaches the new worker, and its timer is cleared.
   */
  private call<T>(fn: (r: Remote) => Promise<T>, timeoutMs?: number, timedOut?: (limit: string) => string): Promise<T> {
    if (this.disposed) return Promise.reject(closedError());
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { reject };
      this.pending.add(entry);
      this.worker.hold?.(true);
      const settle = () => {
        this.pending.delete(entry);
        clearTimeout(entry.timer);
        if (this.pending.size === 0) this.worker.hold?.(false);
      };
      // The limit counts from when the call reaches the worker, not while a restarted worker
      // reopens the databases (a large file takes seconds to read again), nor while it is busy.
      const startTimer = () => {
        if (!timeoutMs || timeoutMs <= 0) return;
        entry.timer = setTimeout(() => {
          if (!this.pending.has(entry)) return;
          settle();
          reject(
            new DowserError(
              'timeout',
              timedOut?.(limitText(timeoutMs)) ??
                `The query ran longer than the time limit (${limitText(timeoutMs)}) and was stopped. Add a LIMIT or a WHERE filter, or ${this.options.raiseLimitHint ?? 'raise the limit in settings'}.`,
            ),
          );
          void this.restart('timeout');
        }, timeoutMs);
      };
      this.reopening
        .then(async () => {
          if (!this.pending.has(entry)) return undefined as T; // rejected while waiting: run nothing
          if (!timeoutMs || timeoutMs <= 0) return fn(this.remote);
          // The limit counts from when the worker is free to take the call: a query asked while
          // another runs, or while a build's step or the schema is read, is not charged for that
          // wait. The worker answers messages in order, so the answer to the cheapest call, sent
          // once the timed call before was sent, says it is free.
          const previous = this.lastSent;
          let markSent!: () => void;
          this.lastSent = new Promise<void>((resolve) => (markSent = resolve));
          try {
            await previous;
            const gone = this.gone;
            if (this.pending.has(entry)) await Promise.race([this.remote.heapBytes().catch(() => undefined), gone]);
            if (!this.pending.has(entry)) return undefined as T;
            startTimer();
            return fn(this.remote);
          } finally {
            markSent();
          }
        })
        .then(
          (v) => {
            if (this.pending.has(entry)) {
              settle();
              resolve(v);
              this.afterCall();
            }
          },
          (e) => {
            if (this.pending.has(entry)) {
              settle();
              reject(e);
              this.afterCall();
            }
          },
        );
    });
  }

  /**
   * Once no call is pending, asks the worker how big its heap grew; above the limit the worker is
   * replaced (nobody is waiting on it, so nothing is cancelled) and the databases reopened.
   */
  private afterCall(): void {
    if (this.pending.size > 0 || this.checkingHeap || this.disposed) return;
    const remote = this.remote;
    this.checkingHeap = true;
    void (async () => {
      try {
        const heap = await remote.heapBytes();
        const limit = Math.max(this.heapLimitBytes, 2 * this.buildHeapBytes);
        if (typeof heap === 'number' && heap > limit && this.pending.size === 0 && remote === this.remote)
          await this.restart('memory');
      } catch {
        // An old worker's answer, or a worker that died: the next call finds out.
      } finally {
        this.checkingHeap = false;
      }
    })();
  }

  /** Stops whatever runs now. Open databases stay open (reopened from their bytes). */
  async cancel(): Promise<void> {
    if (this.disposed) return;
    await this.restart('cancelled');
  }

  private async restart(reason: RestartReason, why?: string): Promise<void> {
    const stale = [...this.pending];
    this.pending.clear();
    const error =
      reason === 'crashed'
        ? new DowserError(
            'internal',
            `The database worker stopped${why ? ` (${why})` : ''}; it was restarted and your databases reopened.`,
          )
        : new DowserError('cancelled', 'Cancelled: the query was stopped.');
    for (const p of stale) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    this.stop();
    this.worker = this.start();
    this.remote = Comlink.wrap<DbEngine>(this.worker.endpoint);
    this.lastSent = Promise.resolve();
    this.buildHeapBytes = 0;
    const remote = this.remote;
    // Ends early when this worker is replaced in turn (a second Cancel while it reopens).
    this.reopening = Promise.race([
      (async () => {
        for (const req of this.opened.values()) await remote.open(req).catch(() => undefined);
      })(),
      this.gone,
    ]);
    await this.reopening;
    this.options.onRestart?.(reason);
  }

  /** The request (a File handle or bytes) is kept to reopen the database after a restart. */
  async open(request: OpenRequest, onProgress?: (fraction: number) => void): Promise<OpenReport> {
    const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
    const report = await this.call((r) => r.open(request, progress));
    this.opened.set(request.id, request);
    if (report.readFrom === 'file') this.readInPlace.add(request.id);
    else this.readInPlace.delete(request.id);
    this.toolsBuiltIn.delete(request.id);
    return report;
  }

  /**
   * A file read where it lies is checked in a worker of its own, opened on the same file (no copy):
   * quick_check reads every page in one statement, and the person's queries, the schema and the
   * tools would wait behind it for seconds. A copy in memory is checked here (it is small).
   */
  check(id: string): Promise<OpenReport> {
    const limit = Math.max(this.queryTimeoutMs, 60_000);
    const request = this.opened.get(id);
    if (request && this.readInPlace.has(id)) return this.checkAside(request, limit);
    return this.call((r) => r.check(id), limit);
  }

  private async checkAside(request: OpenRequest, limitMs: number): Promise<OpenReport> {
    if (this.disposed) throw closedError();
    const worker = this.spawn();
    const remote = Comlink.wrap<DbEngine>(worker.endpoint);
    this.asides.add(worker);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DowserError('timeout', `The integrity check took longer than ${limitText(limitMs)} and was stopped.`),
          ),
        limitMs,
      );
      worker.onDeath?.((why) => reject(new DowserError('internal', `The integrity check stopped (${why}).`)));
    });
    stopped.catch(() => undefined); // settles after the race at most: never unhandled
    try {
      worker.hold?.(true);
      return await Promise.race([
        (async () => {
          await remote.open({ ...request, read: 'file' });
          return remote.check(request.id);
        })(),
        stopped,
      ]);
    } finally {
      clearTimeout(timer);
      this.asides.delete(worker);
      remote[Comlink.releaseProxy]();
      worker.terminate();
    }
  }

  async close(id: string): Promise<void> {
    this.opened.delete(id);
    this.readInPlace.delete(id);
    this.toolOptions.delete(id);
    this.toolsBuiltIn.delete(id);
    await this.call((r) => r.close(id));
  }

  query(id: string, sql: string, options?: QueryOptions, timeoutMs = this.queryTimeoutMs): Promise<QueryResult> {
    return this.call((r) => r.query(id, sql, options), timeoutMs);
  }

  wholeValue(id: string, sql: string, at: CellAddress): Promise<WholeValue> {
    return this.call((r) => r.wholeValue(id, sql, at), this.queryTimeoutMs);
  }

  /** The time budget, plus a limit of its own for the object being read when it ran out. */
  introspect(id: string, options?: SchemaRequest): Promise<Schema> {
    // A timer cannot wait longer than 2^31-1 ms (an endless budget would fire at once).
    const budget = Math.min(options?.budgetMs ?? DEFAULT_INTROSPECT_BUDGET_MS, 60 * 60_000);
    return this.call(
      (r) => r.introspect(id, options),
      budget + SCHEMA_READ_LIMIT_MS,
      (limit) => `Reading the tables and columns took longer than ${limit} and was stopped.`,
    );
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
    const worker = this.worker;
    const job = this.call(
      async (r) => {
        const summary = await r.buildTools(id, options, progress);
        await this.builtIn(r, id, worker);
        return summary;
      },
      Math.max(this.queryTimeoutMs, 10 * 60_000),
    );
    // A question asked meanwhile waits for this build instead of starting a second one.
    this.builds.set(id, { worker, done: job });
    const forget = () => {
      if (this.builds.get(id)?.done === job) this.builds.delete(id);
    };
    job.then(forget, forget);
    return job;
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
        await this.builtIn(r, id, worker);
        return summary;
      },
      this.queryTimeoutMs + this.rebuildAllowanceMs(id),
    );
  }

  /**
   * No time limit: a build has its own, and writing a kept index is bounded by the disk. A worker
   * restarted since the build knows of no keeping: nothing is under way there (`none`).
   */
  finishKeeping(id: string, onProgress?: (p: KeepProgress) => void): Promise<KeptState> {
    const progress = onProgress ? Comlink.proxy(onProgress) : undefined;
    return this.call((r) => r.finishKeeping(id, progress));
  }

  /**
   * The worker bounds how long a tool waits for indexes under way (SqljsEngine.callTool): a build is
   * started here when this worker has none (after a restart), not awaited.
   */
  callTool(id: string, name: string, args: unknown, extras?: ToolCallExtras): Promise<ToolCallOutcome> {
    return this.call(
      async (r) => {
        void this.ensureTools(r, id).catch(() => undefined);
        return r.callTool(id, name, args, extras);
      },
      this.queryTimeoutMs + (this.toolsBuiltIn.get(id) === this.worker ? 0 : TOOL_WAITS_FOR_INDEXES_MS),
    );
  }

  exportImported(id: string): Promise<Uint8Array> {
    return this.call((r) => r.exportImported(id), this.queryTimeoutMs);
  }

  linkQuestion(id: string, question: string, options: WaitOptions = {}): Promise<QuestionLink[]> {
    return this.call(
      async (r) => {
        await this.toolsWithin(r, id, options);
        return r.linkQuestion(id, question, options);
      },
      this.queryTimeoutMs + this.rebuildAllowanceMs(id),
    );
  }

  grounding(id: string, options: WaitOptions = {}): Promise<Grounding> {
    return this.call(
      async (r) => {
        await this.toolsWithin(r, id, options);
        return r.grounding(id, options);
      },
      this.queryTimeoutMs + this.rebuildAllowanceMs(id),
    );
  }

  /** With `waitMs` the build is started, not awaited: the worker answers with what it has by then. */
  private async toolsWithin(r: Remote, id: string, options: WaitOptions): Promise<void> {
    if (options.waitMs === undefined) return this.ensureTools(r, id);
    void this.ensureTools(r, id).catch(() => undefined);
  }

  /** After a restart the new worker has no indexes: rebuild them with the options last used. */
  private async ensureTools(r: Remote, id: string): Promise<void> {
    if (this.toolsBuiltIn.get(id) === this.worker) return;
    const underway = this.builds.get(id);
    if (underway?.worker === this.worker) {
      await underway.done.catch(() => undefined);
      if (this.toolsBuiltIn.get(id) === this.worker) return;
    }
    const worker = this.worker;
    await r.buildTools(id, this.toolOptions.get(id) ?? {});
    await this.builtIn(r, id, worker);
  }

  /**
   * Marks the indexes as built in `worker` and notes the heap the build left: building reads every
   * text column, and what SQLite grew for it stays. The memory limit is measured above twice that,
   * or a restart would be followed by the same build and the same heap, again and again.
   */
  private async builtIn(r: Remote, id: string, worker: SpawnedWorker): Promise<void> {
    this.toolsBuiltIn.set(id, worker);
    const heap = await r.heapBytes().catch(() => 0);
    if (worker === this.worker) this.buildHeapBytes = Math.max(this.buildHeapBytes, heap);
  }

  private rebuildAllowanceMs(id: string): number {
    return this.toolsBuiltIn.get(id) === this.worker ? 0 : 10 * 60_000;
  }

  /** The worker's SQLite heap in bytes (what the memory limit is checked against). */
  heapBytes(): Promise<number> {
    return this.call((r) => r.heapBytes());
  }

  /** Ends the worker for good: pending calls fail as cancelled, later calls at once. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const stale = [...this.pending];
    this.pending.clear();
    for (const p of stale) {
      clearTimeout(p.timer);
      p.reject(closedError());
    }
    for (const w of this.asides) w.terminate();
    this.asides.clear();
    this.stop();
  }
}
