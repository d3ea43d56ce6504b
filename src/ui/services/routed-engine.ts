// The page's one engine: files in the database worker, databases served by `dowser serve` over
// HTTP (issue 36), chosen per database id. Stop on a served database asks serve to stop it and
// leaves the worker (and every file open there) alone.

import type { DbEngine } from '../../core/engine';
import { HttpEngine, type ServedSession } from '../../core/remote/http-engine';
import type { RestartableEngine } from '../../worker/db-client';
import type { PageEngine } from './types';

type Method = Exclude<keyof DbEngine, 'open' | 'close' | 'heapBytes'>;

export class RoutedEngine implements PageEngine {
  private readonly served = new Map<string, HttpEngine>();
  private timeoutMs: number;

  constructor(
    private readonly local: RestartableEngine,
    private readonly fetchFn: typeof fetch = (input, init) => fetch(input, init),
  ) {
    this.timeoutMs = local.queryTimeoutMs;
  }

  get queryTimeoutMs(): number {
    return this.timeoutMs;
  }

  set queryTimeoutMs(ms: number) {
    this.timeoutMs = ms;
    this.local.queryTimeoutMs = ms;
    for (const e of this.served.values()) e.queryTimeoutMs = ms;
  }

  /** From now on, calls for `id` go to serve with this session. */
  attachServed(id: string, session: ServedSession): void {
    const engine = new HttpEngine(session, id, this.fetchFn);
    engine.queryTimeoutMs = this.timeoutMs;
    this.served.set(id, engine);
  }

  isServed(id: string): boolean {
    return this.served.has(id);
  }

  private of(id: string): DbEngine {
    return this.served.get(id) ?? this.local;
  }

  private route<M extends Method>(method: M) {
    return ((id: string, ...rest: unknown[]) =>
      (this.of(id)[method] as (id: string, ...a: unknown[]) => unknown)(id, ...rest)) as DbEngine[M];
  }

  open: DbEngine['open'] = (request, onProgress) => this.local.open(request, onProgress);
  check = this.route('check');
  query = this.route('query');
  wholeValue = this.route('wholeValue');
  introspect = this.route('introspect');
  columnStats = this.route('columnStats');
  buildTools = this.route('buildTools');
  finishKeeping = this.route('finishKeeping');
  callTool = this.route('callTool');
  setDescriptions = this.route('setDescriptions');
  linkQuestion = this.route('linkQuestion');
  exportImported = this.route('exportImported');
  grounding = this.route('grounding');

  async close(id: string): Promise<void> {
    const served = this.served.get(id);
    if (!served) return this.local.close(id);
    this.served.delete(id);
    await served.close(id);
  }

  heapBytes(): Promise<number> {
    return this.local.heapBytes();
  }

  /** Stops what runs for `dbId` (a served database: serve stops it); without one, everything. */
  async cancel(dbId?: string): Promise<void> {
    const served = dbId === undefined ? undefined : this.served.get(dbId);
    if (served) return served.cancel();
    await Promise.all([
      this.local.cancel(),
      ...(dbId === undefined ? [...this.served.values()].map((e) => e.cancel()) : []),
    ]);
  }
}
