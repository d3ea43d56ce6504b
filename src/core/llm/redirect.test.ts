// A request carrying a key follows no redirect (issue 28, item 10): Node's fetch drops only
// `Authorization` when it follows one to another origin, so Anthropic's `x-api-key` would reach
// whatever server the redirect names. Both clients stop with a readable error instead.
// @vitest-environment node
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from './anthropic';
import { createOpenAiCompatibleModel } from './openai-compatible';
import type { ChatModel } from './types';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server that sends every request to `elsewhere`, and `elsewhere`, which records what reaches it. */
async function redirecting() {
  const reached: IncomingHttpHeaders[] = [];
  const elsewhere = await listen((req, res) => {
    reached.push(req.headers);
    res.writeHead(500).end();
  });
  const base = await listen((req, res) => res.writeHead(307, { Location: `${elsewhere}${req.url}` }).end());
  return { base, reached };
}

async function firstTurn(model: ChatModel) {
  for await (const _ of model.stream({ messages: [{ role: 'user', content: 'hi' }] })) void _;
}

describe('a redirect with a key', () => {
  it('is not followed by the Anthropic client: x-api-key never reaches the other server', async () => {
    const { base, reached } = await redirecting();
    const model = createAnthropicModel({ apiKey: 'sk-ant-secret-1', model: 'm', fetch, baseUrl: base, maxRetries: 0 });
    await expect(firstTurn(model)).rejects.toThrow(/answered with a redirect; the key is not sent on/);
    expect(reached).toEqual([]);
  });

  it('is not followed by the OpenAI-compatible client either', async () => {
    const { base, reached } = await redirecting();
    const model = createOpenAiCompatibleModel({
      apiKey: 'sk-secret-2',
      model: 'm',
      fetch,
      baseUrl: `${base}/v1`,
      maxRetries: 0,
    });
    await expect(firstTurn(model)).rejects.toThrow(/answered with a redirect/);
    expect(reached).toEqual([]);
  });
});
