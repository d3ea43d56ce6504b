// One database served by `dowser serve`, as a DbEngine for the page (issue 36). Every call is a
// POST with the session secret; the answer streams back as lines (progress, then the result or
// the error). The model is still called from the page: serve sees SQL, questions for the tools
// and descriptions, never a key. Stop is a cancel request that serve passes to its engine.

import { DowserError } from '../errors';
import type {
  CellAddress,
  DbEngine,
  KeptState,
  OpenRequest,
  SchemaRequest,
  StatsOptions,
  ToolCallExtras,
  ToolsOptions,
  ToolsSummary,
  WaitOptions,
  WholeValue,
} from '../engine';
import type { ColumnDescriptions } from '../retrieval/column-index';
import type { QuestionLink } from '../retrieval/linker';
import type { Grounding } from '../prompt/grounded-schema';
import type { ToolCallOutcome } from '../tools/registry';
import type { ToolboxProgress } from '../tools/toolbox';
import type { ColumnStats, OpenReport, QueryOptions, QueryResult, Schema } from '../types';
import type { ServeLink } from './link';
import { SERVE_PATHS, type CallLine, type ServeMethod, type SessionGrant } from './protocol';
import { errorFromWire, fromWire, toWire } from './wire';

export interface ServedSession {
  origin: string;
  session: string;
}

const unreachable = (origin: string, why: string) =>
  new DowserError(
    'open_failed',
    `dowser serve at ${origin} did not answer (${why}). Is it still running? Start it again and open the link it prints.`,
  );

async function post(fetchFn: typeof fetch, url: string, body: unknown, session?: string, signal?: AbortSignal) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (session) headers.authorization = `Bearer ${session}`;
  return fetchFn(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal,
    // The session secret is the credential: no cookies, no referrer.
    credentials: 'omit',
    referrerPolicy: 'no-referrer',
  });
}

/** A refusal serve sent as JSON `{ error }` (a bad token, another origin, a bad request). */
async function refusal(res: Response): Promise<DowserError> {
  const text = await res.text().catch(() => '');
  try {
    return errorFromWire((JSON.parse(text) as { error?: unknown }).error);
  } catch {
    return new DowserError('internal', `dowser serve answered ${res.status} ${text.slice(0, 200)}`.trim());
  }
}

/** Exchanges the link's one-time token for a session and the served database's report. */
export async function startSession(
  link: ServeLink,
  fetchFn: typeof fetch = fetch,
): Promise<{ session: ServedSession; report: OpenReport }> {
  let res: Response;
  try {
    res = await post(fetchFn, link.origin + SERVE_PATHS.session, { token: link.token });
  } catch (e) {
    throw unreachable(link.origin, e instanceof Error ? e.message : String(e));
  }
  if (!res.ok) throw await refusal(res);
  const grant = (await res.json()) as SessionGrant;
  if (typeof grant.session !== 'string') throw new DowserError('internal', 'dowser serve sent no session.');
  return { session: { origin: link.origin, session: grant.session }, report: fromWire(grant.report) as OpenReport };
}

export class HttpEngine implements DbEngine {
  /** How long the page waits for a query before it asks serve to stop it (serve has its own limit too). */
  queryTimeoutMs = 30_000;
  private readonly running = new Set<AbortController>();

  constructor(
    readonly served: ServedSession,
    /** The page's id of the database (any other id is unknown here). */
    readonly id: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  private async call<T>(
    id: string,
    method: ServeMethod,
    args: unknown[],
    options: { onProgress?: (p: unknown) => void; timeoutMs?: number } = {},
  ): Promise<T> {
    if (id !== this.id) throw new DowserError('unknown_database', `No database with id "${id}" is open.`);
    const controller = new AbortController();
    this.running.add(controller);
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            controller.abort();
            void this.cancel();
          }, options.timeoutMs);
    try {
      let res: Response;
      try {
        res = await post(
          this.fetchFn,
          this.served.origin + SERVE_PATHS.call,
          { method, args: toWire(args) },
          this.served.session,
          controller.signal,
        );
      } catch (e) {
        throw this.failure(controller, timedOut, e);
      }
      if (!res.ok) throw await refusal(res);
      return await this.readLines<T>(res, controller, () => timedOut, options.onProgress);
    } finally {
      if (timer) clearTimeout(timer);
      this.running.delete(controller);
    }
  }

  private failure(controller: AbortController, timedOut: boolean, e: unknown): DowserError {
    if (timedOut)
      return new DowserError(
        'timeout',
        `The query ran longer than the time limit (${Math.round(this.queryTimeoutMs / 1000)} s) and was stopped. Add a LIMIT or a WHERE filter, or raise the limit in settings.`,
      );
    if (controller.signal.aborted) return new DowserError('cancelled', 'Stopped.');
    if (e instanceof DowserError) return e;
    return unreachable(this.served.origin, e instanceof Error ? e.message : String(e));
  }

  /** Reads the answer's lines: progress as it comes, then one result or error. */
  private async readLines<T>(
    res: Response,
    controller: AbortController,
    timedOut: () => boolean,
    onProgress?: (p: unknown) => void,
  ): Promise<T> {
    if (!res.body) throw new DowserError('internal', 'dowser serve sent an empty answer.');
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (value) buffered += value;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (!line.trim()) continue;
          const parsed = JSON.parse(line) as CallLine;
          if ('progress' in parsed) onProgress?.(fromWire(parsed.progress));
          else if ('result' in parsed) return fromWire(parsed.result) as T;
          else if ('error' in parsed) throw errorFromWire(parsed.error);
        }
        if (done) break;
      }
    } catch (e) {
      if (e instanceof DowserError) throw e;
      if (e instanceof SyntaxError)
        throw new DowserError('internal', 'dowser serve sent an answer this page cannot read.');
      throw this.failure(controller, timedOut(), e);
    } finally {
      reader.releaseLock();
    }
    throw this.failure(controller, timedOut(), new Error('the answer ended before its result'));
  }

  /** The served database is opened by serve; the page connects with startSession instead. */
  open(request: OpenRequest): Promise<OpenReport> {
    return Promise.reject(
      new DowserError('unsupported', `"${request.name}" is a file: it opens in the page, not through dowser serve.`),
    );
  }

  check(id: string): Promise<OpenReport> {
    return this.call(id, 'check', []);
  }

  /** The page forgets the database; serve keeps it open for another tab or a reload. */
  async close(id: string): Promise<void> {
    if (id !== this.id) return;
    for (const c of this.running) c.abort();
  }

  query(id: string, sql: string, options?: QueryOptions): Promise<QueryResult> {
    return this.call(id, 'query', [sql, options], { timeoutMs: this.queryTimeoutMs + 5_000 });
  }

  wholeValue(id: string, sql: string, at: CellAddress): Promise<WholeValue> {
    return this.call(id, 'wholeValue', [sql, at], { timeoutMs: this.queryTimeoutMs + 5_000 });
  }

  introspect(id: string, options?: SchemaRequest): Promise<Schema> {
    return this.call(id, 'introspect', [options]);
  }

  columnStats(id: string, table: string, column: string, options?: StatsOptions): Promise<ColumnStats> {
    return this.call(id, 'columnStats', [table, column, options]);
  }

  buildTools(id: string, options?: ToolsOptions, onProgress?: (p: ToolboxProgress) => void): Promise<ToolsSummary> {
    return this.call(id, 'buildTools', [options], { onProgress: onProgress as (p: unknown) => void });
  }

  /** Serve keeps (or not) its own indexes; the page has nothing to wait for. */
  async finishKeeping(): Promise<KeptState> {
    return 'none';
  }

  callTool(id: string, name: string, args: unknown, extras?: ToolCallExtras): Promise<ToolCallOutcome> {
    return this.call(id, 'callTool', [name, args, extras]);
  }

  setDescriptions(id: string, descriptions: ColumnDescriptions): Promise<ToolsSummary> {
    return this.call(id, 'setDescriptions', [descriptions]);
  }

  linkQuestion(id: string, question: string, options?: WaitOptions): Promise<QuestionLink[]> {
    return this.call(id, 'linkQuestion', [question, options]);
  }

  exportImported(): Promise<Uint8Array> {
    return Promise.reject(
      new DowserError('unsupported', 'A database served by dowser serve is not saved from the page.'),
    );
  }

  grounding(id: string, options?: WaitOptions): Promise<Grounding> {
    return this.call(id, 'grounding', [options]);
  }

  /** Serve's memory is its own machine's. */
  async heapBytes(): Promise<number> {
    return 0;
  }

  /** Stop: serve's engine stops the statement running for us; the waits end at once. */
  async cancel(): Promise<void> {
    const running = [...this.running];
    const asked = post(this.fetchFn, this.served.origin + SERVE_PATHS.cancel, {}, this.served.session).then(
      () => undefined,
      () => undefined,
    );
    for (const c of running) c.abort();
    await asked;
  }
}
