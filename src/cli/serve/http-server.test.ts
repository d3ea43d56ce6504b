// dowser serve's HTTP side with a SQLite database in process: what it refuses (no Origin, another
// origin, another Host, no session, a used token, a method off the list, bad arguments, a large
// body, a write) and that the page's client gets every engine answer back as the engine gave it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { DowserError } from '../../core/errors';
import { HttpEngine, startSession } from '../../core/remote/http-engine';
import { DEFAULT_SERVE_LIMITS, MAX_REQUEST_BYTES } from '../../core/remote/protocol';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { startServe, type RunningServe } from './http-server';

const PAGE = 'http://localhost:5173';
let serve: RunningServe;
let cancels = 0;

/** fetch as the page's browser sends it: with the page's Origin. */
const pageFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: PAGE } });

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(serve.origin + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function session(): Promise<string> {
  const res = await post('/session', { token: serve.newToken() }, { origin: PAGE });
  expect(res.status).toBe(200);
  return ((await res.json()) as { session: string }).session;
}

beforeAll(async () => {
  const engine = await createNodeEngine();
  const bytes = await buildDb(
    SHOP_SQL +
      'CREATE TABLE big (id INTEGER PRIMARY KEY, n INTEGER); INSERT INTO big VALUES (1, 9007199254740993);' +
      'WITH RECURSIVE s(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM s WHERE i < 40) INSERT INTO big SELECT i, i FROM s;',
  );
  const report = await engine.open({ id: 'served', name: 'shop.sqlite', bytes });
  const served = Object.assign(engine, { cancel: async () => void cancels++ });
  serve = await startServe({
    database: { engine: served, id: 'served', report },
    pageOrigin: PAGE,
    limits: { ...DEFAULT_SERVE_LIMITS, maxRows: 25 },
    port: 0,
  });
});
afterAll(() => serve?.close());

describe('dowser serve refuses', () => {
  it('a request without the Origin of the page, or from another origin, with no CORS answer', async () => {
    const none = await post('/session', { token: serve.newToken() });
    expect(none.status).toBe(403);
    const other = await post('/session', { token: serve.newToken() }, { origin: 'http://evil.example' });
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(/only the page at/);
  });

  it('a Host that is not 127.0.0.1 or localhost (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(serve.origin);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/session',
          method: 'POST',
          headers: { host: 'evil.example', origin: PAGE },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(421);
  });

  it('a call without a session, and a link token used twice', async () => {
    const res = await post('/call', { method: 'check', args: [] }, { origin: PAGE });
    expect(res.status).toBe(401);
    const forged = await post(
      '/call',
      { method: 'check', args: [] },
      { origin: PAGE, authorization: 'Bearer x'.repeat(10) },
    );
    expect(forged.status).toBe(401);
    const token = serve.newToken();
    expect((await post('/session', { token }, { origin: PAGE })).status).toBe(200);
    const again = await post('/session', { token }, { origin: PAGE });
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/used already/);
  });

  it('methods off the list, bad arguments, a body over the limit', async () => {
    const auth = { origin: PAGE, authorization: `Bearer ${await session()}` };
    for (const method of ['open', 'exportImported', 'close', '__proto__', 'constructor']) {
      const res = await post('/call', { method, args: [] }, auth);
      expect(res.status, method).toBe(400);
    }
    const bad = await post('/call', { method: 'query', args: [42] }, auth);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/arguments of query/);
    const huge = await post('/call', JSON.stringify({ method: 'query', args: ['x'.repeat(MAX_REQUEST_BYTES)] }), auth);
    expect(huge.status).toBe(413);
  });

  it('a write, with the readable refusal of the engine', async () => {
    const engine = new HttpEngine(
      (await startSession({ origin: serve.origin, token: serve.newToken() }, pageFetch)).session,
      'p1',
      pageFetch,
    );
    const refused = await engine.query('p1', 'DELETE FROM orders').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DowserError);
    expect((refused as DowserError).code).toBe('read_only');
    expect((await engine.query('p1', 'SELECT count(*) FROM orders')).rows).toEqual([[4]]);
  });
});

describe('the page through dowser serve', () => {
  it('preflight answers the page origin only, and lets a public page reach loopback', async () => {
    const res = await fetch(serve.origin + '/call', {
      method: 'OPTIONS',
      headers: {
        origin: PAGE,
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(res.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(res.headers.get('access-control-allow-private-network')).toBe('true');
  });

  it('gets the report, results with 64-bit integers, rows within serve limit, tools with progress', async () => {
    const { session: s, report } = await startSession({ origin: serve.origin, token: serve.newToken() }, pageFetch);
    expect(report.name).toBe('shop.sqlite');
    const engine = new HttpEngine(s, 'page-id', pageFetch);
    const big = await engine.query('page-id', 'SELECT n FROM big WHERE id = 1');
    expect(big.rows).toEqual([[9007199254740993n]]);
    // The page asks for a million rows (an export); serve returns its own 25 and says there are more.
    const many = await engine.query('page-id', 'SELECT * FROM big', { maxRows: 1_000_000 });
    expect(many.rows).toHaveLength(25);
    expect(many.truncated).toBe(true);
    const schema = await engine.introspect('page-id');
    expect(schema.tables.map((t) => t.name)).toEqual(expect.arrayContaining(['customers', 'orders', 'big']));
    const stages: string[] = [];
    const summary = await engine.buildTools('page-id', { valueCellBudget: null }, (p) => stages.push(p.stage));
    expect(summary.valuesIndexed).toBeGreaterThan(0);
    expect(stages).toContain('values');
    const found = await engine.callTool('page-id', 'search_value', { query: 'Osloo' });
    expect(JSON.stringify(found)).toContain('Oslo');
    const grounding = await engine.grounding('page-id');
    expect(JSON.stringify(grounding, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toContain('city');
    const links = await engine.linkQuestion('page-id', 'orders of customers in Paris');
    expect(links.some((l) => l.kind === 'value' || JSON.stringify(l).includes('Paris'))).toBe(true);
    await expect(engine.query('other-id', 'SELECT 1')).rejects.toMatchObject({ code: 'unknown_database' });
  });

  it('Stop asks serve to cancel, and a gone serve is a readable error', async () => {
    const { session: s } = await startSession({ origin: serve.origin, token: serve.newToken() }, pageFetch);
    const engine = new HttpEngine(s, 'p2', pageFetch);
    const before = cancels;
    await engine.cancel();
    expect(cancels).toBe(before + 1);
    const gone = new HttpEngine({ origin: 'http://127.0.0.1:9', session: s.session }, 'p3', pageFetch);
    await expect(gone.query('p3', 'SELECT 1')).rejects.toThrow(/did not answer.*still running/);
  });
});
