// A mock OpenAI-compatible server for tests: streams replies as SSE in several chunks (tool-call
// arguments cut into pieces, usage in the last chunk), answers non-streaming requests too, and
// can fail on purpose (401, 429 …). It records what each request sent so tests can assert the
// prompt. CORS is open so the page in Chromium can call it from another port.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

export interface MockTextReply {
  text?: string;
  toolCalls?: MockToolCall[];
  finishReason?: string;
  /** Usage reported in the last chunk; `false` sends none (the client must estimate). */
  usage?:
    | { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } }
    | false;
  /** Characters per content / argument piece (default 4). */
  chunkSize?: number;
  /** Write the SSE body in slices of this many bytes (cuts events and UTF-8 characters anywhere). */
  splitBytes?: number;
  /** Pause between writes, so pieces reach the client as separate network reads. */
  delayMs?: number;
}

export interface MockErrorReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A server that never finishes, for the wait limits and the answer budget (decision 068):
 * `headers`, no answer at all; `body`, headers then nothing; `drip`, one byte of an event that
 * never ends every `everyMs` (a slow-loris: the stream is never idle, yet nothing arrives);
 * `endless`, text deltas without end, as fast as the client reads them.
 */
export interface MockStall {
  stall: 'headers' | 'body' | 'drip' | 'endless';
  /** `drip`: milliseconds between bytes (default 50). */
  everyMs?: number;
}

export type MockReply = MockTextReply | { error: MockErrorReply } | MockStall;

export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  /** Lower-case names; `authorization` is replaced by "[present]" so tests never hold a key. */
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
  model?: string;
  messages: unknown[];
  tools?: unknown[];
  stop?: unknown;
  stream: boolean;
}

export type MockScript = MockReply[] | ((request: RecordedRequest, index: number) => MockReply | Promise<MockReply>);

export interface MockLlmOptions {
  port?: number;
  host?: string;
  script: MockScript;
  models?: string[];
  /** Answer 400 to requests carrying `stream_options`, like some older servers. */
  rejectStreamOptions?: boolean;
}

export interface MockLlm {
  /** Base URL ending in /v1, ready for the OpenAI-compatible client. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const wait = (ms: number) => new Promise<void>((r) => (ms > 0 ? setTimeout(r, ms) : setImmediate(r)));

function cors(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader(
    'Access-Control-Allow-Headers',
    req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type',
  );
  if (req.headers['access-control-request-private-network'])
    res.setHeader('Access-Control-Allow-Private-Network', 'true');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function record(req: IncomingMessage, index: number, text: string): RecordedRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    headers[k] = k === 'authorization' || k === 'x-api-key' ? '[present]' : Array.isArray(v) ? v.join(', ') : v;
  }
  let body: Record<string, unknown> | null;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    body = null;
  }
  return {
    index,
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0],
    headers,
    body,
    model: typeof body?.model === 'string' ? body.model : undefined,
    messages: Array.isArray(body?.messages) ? body.messages : [],
    tools: Array.isArray(body?.tools) ? body.tools : undefined,
    stop: body?.stop,
    stream: body?.stream === true,
  };
}

function pieces(text: string, size: number): string[] {
  // Split by code points, never inside a surrogate pair: byte-level cuts are `splitBytes`' job.
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function argsText(c: MockToolCall): string {
  return typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);
}

/** The SSE events of one streamed reply, as OpenAI sends them. */
export function sseEvents(reply: MockTextReply, model: string, includeUsage: boolean): string[] {
  const size = reply.chunkSize ?? 4;
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const events: string[] = [chunk({ role: 'assistant', content: '' })];
  for (const p of pieces(reply.text ?? '', size)) events.push(chunk({ content: p }));
  (reply.toolCalls ?? []).forEach((c, index) => {
    const id = c.id ?? `call_mock_${index}`;
    events.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const p of pieces(argsText(c), size))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  const finish = reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
  events.push(chunk({}, finish));
  if (includeUsage && reply.usage !== false) {
    const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    events.push(
      JSON.stringify({
        ...base,
        choices: [],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  }
  events.push('[DONE]');
  return events.map((e) => `data: ${e}\n\n`);
}

function completionJson(reply: MockTextReply, model: string) {
  const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_mock_${i}`,
    type: 'function',
    function: { name: c.name, arguments: argsText(c) },
  }));
  const usage = reply.usage === false ? undefined : (reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 });
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? (toolCalls.length ? null : ''),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      },
    ],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

async function stream(res: ServerResponse, reply: MockTextReply, model: string, includeUsage: boolean) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
  const events = sseEvents(reply, model, includeUsage);
  const writes: Uint8Array[] = [];
  if (reply.splitBytes) {
    const all = encoder.encode(events.join(''));
    for (let i = 0; i < all.length; i += reply.splitBytes) writes.push(all.subarray(i, i + reply.splitBytes));
  } else {
    for (const e of events) writes.push(encoder.encode(e));
  }
  for (const w of writes) {
    if (res.destroyed || res.writableEnded) return; // the client hung up (abort)
    res.write(w);
    await wait(reply.delayMs ?? 0);
  }
  res.end();
}

/** Holds the request open until the client hangs up (or the server closes). */
async function stall(res: ServerResponse, reply: MockStall, model: string) {
  let closed = false;
  res.once('close', () => (closed = true));
  if (reply.stall === 'headers') return;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
  if (reply.stall === 'body') return;
  if (reply.stall === 'drip') {
    res.write('data: {"choices":[{"index":0,"delta":{"content":"');
    while (!closed) {
      res.write('x');
      await wait(reply.everyMs ?? 50);
    }
    return;
  }
  const event = sseEvents({ text: 'x'.repeat(1000), chunkSize: 1000 }, model, false)[1];
  while (!closed) if (!res.write(event)) await new Promise((r) => res.once('drain', r).once('close', r));
}

export async function startMockLlm(options: MockLlmOptions): Promise<MockLlm> {
  const requests: RecordedRequest[] = [];
  const models = options.models ?? ['mock-model'];
  let chatIndex = 0;

  async function next(request: RecordedRequest, index: number): Promise<MockReply> {
    const script = options.script;
    if (typeof script === 'function') return script(request, index);
    return (
      script[index] ?? {
        error: {
          status: 500,
          body: { error: { message: `mock-llm: no scripted reply left for request #${index + 1}` } },
        },
      }
    );
  }

  const server = createServer((req, res) => {
    void (async () => {
      cors(req, res);
      if (req.method === 'OPTIONS') {
        res.writeHead(204);
        res.end();
        return;
      }
      const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
      if (req.method === 'GET' && path === '/v1/models') {
        sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'mock' })) });
        return;
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        sendJson(res, 404, { error: { message: `mock-llm: no route ${req.method} ${path}` } });
        return;
      }
      const request = record(req, requests.length, await readBody(req));
      requests.push(request);
      if (!request.body) {
        sendJson(res, 400, { error: { message: 'mock-llm: body is not JSON' } });
        return;
      }
      if (options.rejectStreamOptions && request.body.stream_options) {
        sendJson(res, 400, { error: { message: 'Unrecognized request argument supplied: stream_options' } });
        return;
      }
      const index = chatIndex++;
      const reply = await next(request, index);
      if ('error' in reply) {
        sendJson(
          res,
          reply.error.status,
          reply.error.body ?? { error: { message: `mock error ${reply.error.status}` } },
          reply.error.headers,
        );
        return;
      }
      const model = request.model ?? models[0];
      if ('stall' in reply) {
        await stall(res, reply, model);
        return;
      }
      if (!request.stream) {
        sendJson(res, 200, completionJson(reply, model));
        return;
      }
      const includeUsage = !!(request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage;
      await stream(res, reply, model, includeUsage);
    })().catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `mock-llm: ${String(e)}` } });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host}:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
