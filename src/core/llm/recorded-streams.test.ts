// The provider clients against stream files kept beside them (fixtures/*.sse): each server's
// quirks as a file, replayed through the real client with the bytes cut at several sizes, so a
// quirk that breaks shows up as a failing file rather than a hand-written chunk list.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from './anthropic';
import { completeChat } from './complete';
import { createOpenAiCompatibleModel } from './openai-compatible';
import type { ChatModel, ChatResponse } from './types';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

function streamOf(bytes: Uint8Array, cut: number): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(i, i + cut));
      i += cut;
    },
  });
}

function fetchReplaying(bytes: Uint8Array, cut: number): typeof fetch {
  return async () =>
    new Response(streamOf(bytes, cut), { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const question = [{ role: 'user' as const, content: 'q' }];
const CUTS = [1, 7, 64, 100_000];

function openai(bytes: Uint8Array, cut: number): ChatModel {
  return createOpenAiCompatibleModel({ baseUrl: 'http://x/v1', model: 'm', fetch: fetchReplaying(bytes, cut) });
}
function anthropic(bytes: Uint8Array, cut: number): ChatModel {
  return createAnthropicModel({ apiKey: 'k'.repeat(20), model: 'm', fetch: fetchReplaying(bytes, cut) });
}

const cases: {
  file: string;
  client: typeof openai;
  expect: Omit<ChatResponse, 'usage'> & {
    usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; estimated: boolean } | 'estimated';
  };
}[] = [
  {
    file: 'openai-tool-calls.sse',
    client: openai,
    expect: {
      text: 'Looking for café values.',
      toolCalls: [{ id: 'call_Q1', name: 'search_value', arguments: '{"value": "café"}' }],
      finishReason: 'tool_calls',
      // prompt_tokens already counts the cached ones; they are also reported apart.
      usage: { inputTokens: 2210, outputTokens: 31, cachedInputTokens: 1920, estimated: false },
    },
  },
  {
    file: 'ollama-parallel-calls.sse',
    client: openai,
    expect: {
      text: '',
      toolCalls: [
        { id: 'call_wteop8bt', name: 'search_column', arguments: '{"query":"singer age"}' },
        { id: 'call_rk2xye1l', name: 'search_value', arguments: '{"value":"France"}' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 1480, outputTokens: 44, estimated: false },
    },
  },
  {
    file: 'ollama-stop-with-call.sse',
    client: openai,
    expect: {
      text: '',
      toolCalls: [{ id: 'call_x1', name: 'execute_sql', arguments: '{"sql":"SELECT count(*) FROM singer"}' }],
      finishReason: 'tool_calls',
      usage: 'estimated',
    },
  },
  {
    file: 'llamacpp-reasoning-no-final-newline.sse',
    client: openai,
    expect: {
      text: 'Thought: count the rows.\nAction: execute_sql {"sql": "SELECT count(*) FROM singer"}',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 812, outputTokens: 25, estimated: false },
    },
  },
  {
    file: 'anthropic-tool-use.sse',
    client: anthropic,
    expect: {
      text: 'I will search for café.',
      toolCalls: [{ id: 'toolu_01', name: 'search_value', arguments: '{"value": "café", "k": 5}' }],
      finishReason: 'tool_calls',
      // Anthropic's input_tokens leaves out cache reads and writes: 321 + 2048 read from the cache.
      usage: { inputTokens: 2369, outputTokens: 57, cachedInputTokens: 2048, estimated: false },
    },
  },
];

describe('recorded provider streams', () => {
  for (const c of cases) {
    it(`${c.file} gives the same turn however the bytes are cut`, async () => {
      const bytes = fixture(c.file);
      for (const cut of CUTS) {
        const r = await completeChat(c.client(bytes, cut), { messages: question });
        const { usage, ...rest } = c.expect;
        expect({ text: r.text, toolCalls: r.toolCalls, finishReason: r.finishReason }, `cut ${cut}`).toEqual(rest);
        if (usage === 'estimated') expect(r.usage?.estimated).toBe(true);
        else expect(r.usage).toEqual(usage);
      }
    });
  }

  it('openrouter-error-after-200.sse ends in a readable error, not half a turn', async () => {
    const bytes = fixture('openrouter-error-after-200.sse');
    for (const cut of CUTS) {
      const e = await completeChat(openai(bytes, cut), { messages: question }).catch((x: unknown) => x);
      expect(e).toMatchObject({ name: 'LlmError', code: 'llm_server' });
      expect(String((e as Error).message)).toMatch(/Upstream provider returned an error/);
    }
  });
});
