import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { completeChat } from './complete';
import { createAnthropicModel, toAnthropicMessages } from './anthropic';
import type { ChatDelta, ChatMessage } from './types';

// The recorded-shape stream kept beside the client: text, then a tool_use whose input arrives in
// input_json_delta pieces.
const EVENTS: [string, unknown][] = readFileSync(new URL('./fixtures/anthropic-tool-use.sse', import.meta.url), 'utf8')
  .split(/\n\n+/)
  .map((block) => block.split('\n').filter((l) => !l.startsWith(':')))
  .filter((lines) => lines.length === 2)
  .map(([event, data]) => [event.replace(/^event: /, ''), JSON.parse(data.replace(/^data: /, '')) as unknown]);

function sseBody(events: [string, unknown][], cut = 11): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(
    events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(''),
  );
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(i, i + cut)); // cuts "é" and events anywhere
      i += cut;
    },
  });
}

function fakeFetch(responses: (() => Response)[], seen: { url: string; init: RequestInit }[] = []): typeof fetch {
  return async (input, init) => {
    seen.push({ url: String(input), init: init ?? {} });
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    return next();
  };
}

const KEY = 'sk-ant-api03-SECRETSECRET';

describe('Anthropic client', () => {
  it('streams text and a tool_use with input_json_delta pieces; sends the right headers and body', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const model = createAnthropicModel({
      apiKey: KEY,
      model: 'claude-sonnet-4-5',
      fetch: fakeFetch(
        [() => new Response(sseBody(EVENTS), { headers: { 'Content-Type': 'text/event-stream' } })],
        seen,
      ),
    });
    const deltas: ChatDelta[] = [];
    const r = await completeChat(
      model,
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Find café' },
        ],
        tools: [{ name: 'SearchValue', description: 'values', parameters: { type: 'object', properties: {} } }],
        stop: ['Observation:'],
        maxTokens: 500,
      },
      (d) => deltas.push(d),
    );
    expect(r.text).toBe('I will search for café.');
    expect(r.toolCalls).toEqual([{ id: 'toolu_01', name: 'search_value', arguments: '{"value": "café", "k": 5}' }]);
    expect(r.finishReason).toBe('tool_calls');
    // input_tokens (321) leaves out the 2048 read from the prompt cache: the total counts both.
    expect(r.usage).toEqual({ inputTokens: 2369, outputTokens: 57, cachedInputTokens: 2048, estimated: false });
    expect(deltas.filter((d) => d.type === 'tool_call').map((d) => d.type === 'tool_call' && d.index)).toEqual([
      0, 0, 0, 0,
    ]);

    expect(seen[0].url).toBe('https://api.anthropic.com/v1/messages');
    const headers = seen[0].init.headers as Record<string, string>;
    expect(headers['x-api-key']).toBe(KEY);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    const body = JSON.parse(String(seen[0].init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'claude-sonnet-4-5',
      // The system prompt and the tools are cache breakpoints: the same on every turn of a run.
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      stream: true,
      max_tokens: 500,
      stop_sequences: ['Observation:'],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Find café' }] }],
      tools: [
        {
          name: 'SearchValue',
          description: 'values',
          input_schema: { type: 'object', properties: {} },
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });

  it('maps tool calls to tool_use and merges consecutive tool results into one user turn', () => {
    const history: ChatMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'Q' },
      {
        role: 'assistant',
        content: 'Two lookups.',
        toolCalls: [
          { id: 't1', name: 'A', arguments: '{"x":1}' },
          { id: 't2', name: 'B', arguments: 'not json' },
        ],
      },
      { role: 'tool', toolCallId: 't1', name: 'A', content: 'obs 1' },
      { role: 'tool', toolCallId: 't2', name: 'B', content: 'obs 2' },
    ];
    expect(toAnthropicMessages(history)).toEqual({
      system: 'S',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Two lookups.' },
            { type: 'tool_use', id: 't1', name: 'A', input: { x: 1 } },
            { type: 'tool_use', id: 't2', name: 'B', input: { raw: 'not json' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'obs 1' },
            { type: 'tool_result', tool_use_id: 't2', content: 'obs 2' },
          ],
        },
      ],
    });
  });

  it('echoes a call whose arguments nest too deep to send as text, so the request can still be written', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const history: ChatMessage[] = [
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'A', arguments: `{"a": ${deep}}` }] },
      { role: 'tool', toolCallId: 't1', name: 'A', content: 'refused' },
    ];
    const converted = toAnthropicMessages(history);
    expect(converted.messages[1].content[0]).toEqual({
      type: 'tool_use',
      id: 't1',
      name: 'A',
      input: { raw: `{"a": ${deep}}` },
    });
    expect(() => JSON.stringify(converted)).not.toThrow();
  });

  it('maps HTTP errors, retries 529 overloaded, and never shows the key', async () => {
    const json =
      (status: number, body: unknown, headers: Record<string, string> = {}) =>
      () =>
        new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
    const auth = createAnthropicModel({
      apiKey: KEY,
      model: 'm',
      fetch: fakeFetch([
        json(401, { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } }),
      ]),
    });
    const e1 = (await completeChat(auth, { messages: [{ role: 'user', content: 'q' }] }).catch(
      (e: unknown) => e,
    )) as Error & {
      code: string;
    };
    expect(e1.code).toBe('llm_auth');
    expect(e1.message).toContain('Anthropic');
    expect(e1.message).not.toContain('SECRET');

    const sleeps: number[] = [];
    const overloaded = createAnthropicModel({
      apiKey: KEY,
      model: 'm',
      sleep: async (ms) => void sleeps.push(ms),
      fetch: fakeFetch([
        json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
        () => new Response(sseBody(EVENTS), { headers: { 'Content-Type': 'text/event-stream' } }),
      ]),
    });
    expect((await completeChat(overloaded, { messages: [{ role: 'user', content: 'q' }] })).toolCalls).toHaveLength(1);
    expect(sleeps).toHaveLength(1);

    const long = createAnthropicModel({
      apiKey: KEY,
      model: 'm',
      fetch: fakeFetch([
        json(400, {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
        }),
      ]),
    });
    await expect(completeChat(long, { messages: [{ role: 'user', content: 'q' }] })).rejects.toMatchObject({
      code: 'llm_context_length',
    });
  });

  it('an error event mid-stream rejects with its code', async () => {
    const events: [string, unknown][] = [
      EVENTS[0],
      EVENTS[1],
      ['error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    ];
    const model = createAnthropicModel({
      apiKey: KEY,
      model: 'm',
      fetch: fakeFetch([() => new Response(sseBody(events), { headers: { 'Content-Type': 'text/event-stream' } })]),
    });
    await expect(completeChat(model, { messages: [{ role: 'user', content: 'q' }] })).rejects.toMatchObject({
      code: 'llm_server',
      retryable: false,
    });
  });

  it('abort stops the read loop even when the fetch ignores the signal', async () => {
    const controller = new AbortController();
    const endless = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`event: message_start\ndata: ${JSON.stringify(EVENTS[0][1])}\n\n`));
      },
    });
    const model = createAnthropicModel({
      apiKey: KEY,
      model: 'm',
      fetch: fakeFetch([() => new Response(endless, { headers: { 'Content-Type': 'text/event-stream' } })]),
    });
    const p = completeChat(model, { messages: [{ role: 'user', content: 'q' }], signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(p).rejects.toMatchObject({ code: 'llm_aborted' });
  });
});
