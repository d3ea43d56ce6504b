// Tests for e2e/mock-llm/server.ts (vitest only collects src/**): the contract Playwright relies on.
import { afterEach, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('mock LLM server', () => {
  it('lists models and answers CORS preflight', async () => {
    mock = await startMockLlm({ script: [], models: ['a', 'b'] });
    const models = (await (await fetch(`${mock.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['a', 'b']);
    const pre = await fetch(`${mock.url}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:4317',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
  });

  it('streams SSE in several chunks with usage last, records the request without the key', async () => {
    mock = await startMockLlm({
      script: (req) => ({ text: `echo ${(req.messages.at(-1) as { content: string }).content}` }),
    });
    const r = await fetch(`${mock.url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-secret-999999' },
      body: JSON.stringify({
        model: 'm',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(r.headers.get('content-type')).toBe('text/event-stream');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const text = await r.text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events.length).toBeGreaterThan(4);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(JSON.parse(events.at(-2)!.slice(6))).toMatchObject({ choices: [], usage: { prompt_tokens: 10 } });
    expect(mock.requests[0].headers.authorization).toBe('[present]');
    expect(JSON.stringify(mock.requests)).not.toContain('sk-secret');
  });

  it('returns scripted HTTP errors and a clear error when the script runs out', async () => {
    mock = await startMockLlm({ script: [{ error: { status: 429, headers: { 'Retry-After': '2' } } }] });
    const post = () =>
      fetch(`${mock!.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [] }) });
    const first = await post();
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    const second = await post();
    expect(second.status).toBe(500);
    expect(await second.text()).toContain('no scripted reply left');
  });
});
