// The page's engine routes by database id (issue 36): a served database's calls go to its dowser
// serve over HTTP, a file's to the worker; Stop on a served database stops only serve's statement.
import { describe, expect, it } from 'vitest';
import { SERVE_PATHS } from '../../core/remote/protocol';
import { toWire } from '../../core/remote/wire';
import type { RestartableEngine } from '../../worker/db-client';
import { RoutedEngine } from './routed-engine';

function fakeLocal() {
  const calls: string[] = [];
  const local = {
    queryTimeoutMs: 10_000,
    query: async (id: string, sql: string) => {
      calls.push(`query ${id} ${sql}`);
      return { columns: ['where'], rows: [['worker']], truncated: false, offset: 0, elapsedMs: 0 };
    },
    cancel: async () => void calls.push('cancel worker'),
    close: async (id: string) => void calls.push(`close ${id}`),
  };
  return { local: local as unknown as RestartableEngine, calls };
}

function fakeServe() {
  const seen: Array<{ path: string; body: unknown; auth: string | null }> = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const auth = new Headers(init?.headers).get('authorization');
    seen.push({ path: url.pathname, body: JSON.parse(String(init?.body ?? '{}')), auth });
    if (url.pathname === SERVE_PATHS.cancel) return new Response('');
    const result = { columns: ['where'], rows: [['serve', 2n ** 60n]], truncated: false, offset: 0, elapsedMs: 1 };
    return new Response(JSON.stringify({ result: toWire(result) }) + '\n');
  };
  return { fetchFn, seen };
}

describe('the page engine', () => {
  it('sends a served database to its serve with the session, a file to the worker', async () => {
    const { local, calls } = fakeLocal();
    const serve = fakeServe();
    const engine = new RoutedEngine(local, serve.fetchFn);
    engine.attachServed('db-served', { origin: 'http://127.0.0.1:7357', session: 's3cret' });
    expect(engine.isServed('db-served')).toBe(true);
    expect(engine.isServed('db-file')).toBe(false);

    const fromFile = await engine.query('db-file', 'SELECT 1');
    expect(fromFile.rows).toEqual([['worker']]);
    const fromServe = await engine.query('db-served', 'SELECT 2');
    expect(fromServe.rows).toEqual([['serve', 2n ** 60n]]);
    expect(calls).toEqual(['query db-file SELECT 1']);
    expect(serve.seen).toHaveLength(1);
    expect(serve.seen[0].path).toBe(SERVE_PATHS.call);
    expect(serve.seen[0].auth).toBe('Bearer s3cret');
    // serve lends one database: the page's id for it stays in the page.
    const body = serve.seen[0].body as { method: string; args: unknown[] };
    expect(body.method).toBe('query');
    expect(body.args[0]).toBe('SELECT 2');
  });

  it('stops a served statement at serve without restarting the worker; Stop for all stops both', async () => {
    const { local, calls } = fakeLocal();
    const serve = fakeServe();
    const engine = new RoutedEngine(local, serve.fetchFn);
    engine.attachServed('db-served', { origin: 'http://127.0.0.1:7357', session: 's' });
    await engine.cancel('db-served');
    expect(calls).toEqual([]);
    expect(serve.seen.map((s) => s.path)).toEqual([SERVE_PATHS.cancel]);
    await engine.cancel('db-file');
    expect(calls).toEqual(['cancel worker']);
    await engine.cancel();
    expect(calls).toEqual(['cancel worker', 'cancel worker']);
    expect(serve.seen.map((s) => s.path)).toEqual([SERVE_PATHS.cancel, SERVE_PATHS.cancel]);
  });

  it('a time limit set in the page reaches the worker and every served engine', async () => {
    const { local } = fakeLocal();
    const engine = new RoutedEngine(local, fakeServe().fetchFn);
    engine.attachServed('a', { origin: 'http://127.0.0.1:7357', session: 's' });
    engine.queryTimeoutMs = 3_000;
    expect(local.queryTimeoutMs).toBe(3_000);
    expect(engine.queryTimeoutMs).toBe(3_000);
  });
});
