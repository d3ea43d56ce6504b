// The HTTP side of `dowser serve` (issue 36): one database, the engine contract for the page.
// What guards it, in the order a request meets them:
// - a listener on 127.0.0.1 only, and a Host header naming it (a DNS-rebound name is refused);
// - an Origin header that is exactly the page's origin (CORS answers only that origin);
// - a session secret, got once for the one-time token of a printed link (compared in constant time);
// - a method on the allow-list of core/remote/protocol.ts, its arguments checked, its limits
//   (rows, cell and result bytes) clamped to serve's own, whatever the page asked;
// - then the engine's gate and the database's read-only transaction, as for every CLI command.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DowserError, toDowserError } from '../../core/errors';
import type { DbEngine } from '../../core/engine';
import type { OpenReport, QueryOptions } from '../../core/types';
import {
  clampQueryOptions,
  isServeMethod,
  MAX_REQUEST_BYTES,
  SERVE_METHODS,
  SERVE_PATHS,
  serveToolsOptions,
  type CallLine,
  type ServeLimits,
  type ServeMethod,
} from '../../core/remote/protocol';
import { errorToWire, fromWire, toWire } from '../../core/remote/wire';

export interface ServedDatabase {
  engine: DbEngine & { cancel(): Promise<void> };
  id: string;
  report: OpenReport;
}

export interface ServeOptions {
  database: ServedDatabase;
  /** The page's origin, the only one answered (`http://localhost:5173`). */
  pageOrigin: string;
  limits: ServeLimits;
  /** 0: any free port. */
  port: number;
  /** Told of each session started and each refusal (the CLI's stderr), never of a secret. */
  log?: (line: string) => void;
}

export interface RunningServe {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** A new one-time token: a link opens once (a second tab or a reload in another tab needs a new one). */
  newToken(): string;
  close(): Promise<void>;
  server: Server;
}

const secret = () => randomBytes(32).toString('base64url');

function sameSecret(given: string, kept: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(kept);
  return a.length === b.length && timingSafeEqual(a, b);
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: DowserError['code'] = 'read_only',
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the client hears the refusal; far past it, the connection ends.
      if (size > 4 * MAX_REQUEST_BYTES) req.destroy();
      else if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_REQUEST_BYTES)
        return reject(
          new Refusal(413, `A request to dowser serve is limited to ${MAX_REQUEST_BYTES} bytes.`, 'too_large'),
        );
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch {
        reject(new Refusal(400, 'The request is not JSON.', 'internal'));
      }
    });
    req.on('error', reject);
  });
}

/** Runs one allowed method on the served database, with serve's limits in place of the page's. */
function callEngine(
  db: ServedDatabase,
  limits: ServeLimits,
  method: ServeMethod,
  args: unknown[],
  progress: (p: unknown) => void,
) {
  const { engine, id } = db;
  const a = args as never[];
  switch (method) {
    case 'check':
      return engine.check(id);
    case 'query':
      return engine.query(id, a[0], clampQueryOptions(a[1] as QueryOptions | undefined, limits));
    case 'wholeValue':
      return engine.wholeValue(id, a[0], a[1]);
    case 'introspect':
      return engine.introspect(id, a[0]);
    case 'columnStats':
      return engine.columnStats(id, a[0], a[1], a[2]);
    case 'buildTools':
      return engine.buildTools(id, serveToolsOptions(a[0]), progress);
    case 'callTool':
      return engine.callTool(id, a[0], a[1], a[2]);
    case 'setDescriptions':
      return engine.setDescriptions(id, a[0]);
    case 'linkQuestion':
      return engine.linkQuestion(id, a[0], a[1]);
    case 'grounding':
      return engine.grounding(id, a[0]);
  }
}

/** The guards and routes of one serve, in the order a request meets them (see the file comment). */
class ServeHandler {
  readonly tokens = new Set<string>();
  private readonly sessions = new Set<string>();
  port = 0;

  constructor(private readonly options: ServeOptions) {}

  private hostAllowed(host: string | undefined): boolean {
    const p = this.port;
    return host === `127.0.0.1:${p}` || host === `localhost:${p}` || host === `[::1]:${p}`;
  }

  private hasSession(req: IncomingMessage): boolean {
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    return [...this.sessions].some((s) => sameSecret(given, s));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pageOrigin } = this.options;
    if (!this.hostAllowed(req.headers.host))
      throw new Refusal(421, 'dowser serve answers only requests addressed to 127.0.0.1 or localhost.');
    const origin = req.headers.origin;
    if (origin !== pageOrigin)
      throw new Refusal(
        403,
        origin
          ? `dowser serve answers only the page at ${pageOrigin}, not ${origin.slice(0, 200)} (start it with --page to change that).`
          : 'dowser serve answers only the page it was started for (requests need its Origin).',
      );
    res.setHeader('access-control-allow-origin', pageOrigin);
    res.setHeader('vary', 'Origin');
    if (req.method === 'OPTIONS') return preflight(req, res);
    if (req.method !== 'POST') throw new Refusal(405, 'dowser serve takes POST requests only.');
    const path = (req.url ?? '').split('?')[0];
    if (path === SERVE_PATHS.session) return this.startSession(req, res);
    if (path !== SERVE_PATHS.call && path !== SERVE_PATHS.cancel) throw new Refusal(404, 'No such request.');
    if (!this.hasSession(req))
      throw new Refusal(
        401,
        'This page has no session with dowser serve: open the link serve prints (press Enter there for a new one).',
      );
    if (path === SERVE_PATHS.call) return this.call(req, res);
    await readBody(req).catch(() => undefined);
    await this.options.database.engine.cancel().catch(() => undefined);
    res.writeHead(204);
    res.end();
  }

  private async startSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = (await readBody(req)) as { token?: unknown };
    const given = typeof body.token === 'string' ? body.token : '';
    const token = [...this.tokens].find((t) => sameSecret(given, t));
    if (!token)
      throw new Refusal(
        401,
        'This dowser serve link was used already (each link opens once) or is not from this serve: press Enter where serve runs for a new link.',
      );
    this.tokens.delete(token);
    const session = secret();
    this.sessions.add(session);
    this.options.log?.(`A page at ${this.options.pageOrigin} connected (session ${this.sessions.size}).`);
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ session, report: toWire(this.options.database.report) }));
  }

  private async call(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, args } = parseCall(await readBody(req));
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    const send = (line: CallLine) => {
      if (!res.writableEnded) res.write(JSON.stringify(line) + '\n');
    };
    try {
      const { database, limits } = this.options;
      const result = await callEngine(database, limits, method, args, (p) => send({ progress: toWire(p) }));
      send({ result: toWire(result) });
    } catch (e) {
      send({ error: errorToWire(toDowserError(e)) });
    }
    res.end();
  }
}

function preflight(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-methods', 'POST');
  res.setHeader('access-control-allow-headers', 'content-type, authorization');
  res.setHeader('access-control-max-age', '600');
  // A page served from the web may reach a loopback server only when the server agrees (Private Network Access).
  if (req.headers['access-control-request-private-network'] === 'true')
    res.setHeader('access-control-allow-private-network', 'true');
  res.writeHead(204);
  res.end();
}

/** A call's method (on the list) and its arguments (decoded and checked), or a 400 refusal. */
function parseCall(body: unknown): { method: ServeMethod; args: unknown[] } {
  const { method, args } = (body ?? {}) as { method?: unknown; args?: unknown };
  if (!isServeMethod(method))
    throw new Refusal(400, `dowser serve does not run "${String(method).slice(0, 100)}" for the page.`, 'unsupported');
  let decoded: unknown;
  try {
    decoded = fromWire(args);
  } catch (e) {
    throw new Refusal(400, toDowserError(e).message, 'internal');
  }
  const parsed = SERVE_METHODS[method].safeParse(decoded);
  if (!parsed.success)
    throw new Refusal(
      400,
      `The arguments of ${method} are not what dowser serve takes: ${parsed.error.issues[0]?.message ?? ''}`,
      'internal',
    );
  return { method, args: parsed.data as unknown[] };
}

const refuse = (res: ServerResponse, r: Refusal) => {
  res.writeHead(r.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: errorToWire(new DowserError(r.code, r.message)) }));
};

export function startServe(options: ServeOptions): Promise<RunningServe> {
  const handler = new ServeHandler(options);
  const server = createServer((req, res) => {
    handler.handle(req, res).catch((e: unknown) => {
      const r = e instanceof Refusal ? e : new Refusal(500, toDowserError(e).message, 'internal');
      if (r.status !== 500 && r.status !== 413) options.log?.(`refused: ${r.message}`);
      if (res.headersSent) res.end();
      else refuse(res, r);
    });
  });
  // A slow or idle client does not hold a connection forever; a long statement is bounded by the engine.
  server.headersTimeout = 20_000;
  server.requestTimeout = 0;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      const address = server.address();
      handler.port = typeof address === 'object' && address ? address.port : options.port;
      resolve({
        origin: `http://127.0.0.1:${handler.port}`,
        server,
        newToken() {
          const t = secret();
          handler.tokens.add(t);
          return t;
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
