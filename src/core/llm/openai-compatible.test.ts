import { afterEach, describe, expect, it } from 'vitest';
import { completeChat } from './complete';
import { startMockLlm, type MockLlm, type MockLlmOptions } from '../../../e2e/mock-llm/server';
import { createOpenAiCompatibleModel, toOpenAiMessages } from './openai-compatible';
import { LlmError, type ChatDelta, type ChatMessage } from './types';

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function setup(options: MockLlmOptions, extra: Partial<Parameters<typeof createOpenAiCompatibleModel>[0]> = {}) {
  mock = await startMockLlm(options);
  const sleeps: number[] = [];
  const model = createOpenAiCompatibleModel({
    baseUrl: mock.url,
    model: 'mock-model',
    apiKey: 'sk-test-SECRET-123456',
    fetch: (...a) => fetch(...a),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  return { model, sleeps, mock };
}

const question: ChatMessage[] = [
  { role: 'system', content: 'You answer questions.' },
  { role: 'user', content: 'How many albums?' },
];

describe('OpenAI-compatible client against the mock server', () => {
  it('streams text, reports usage and sends stop, temperature, max_tokens', async () => {
    const { model, mock } = await setup({
      script: [{ text: 'There are 347 albums.', usage: { prompt_tokens: 42, completion_tokens: 7 } }],
    });
    const deltas: ChatDelta[] = [];
    const r = await completeChat(
      model,
      { messages: question, stop: ['Observation:'], temperature: 0, maxTokens: 200 },
      (d) => deltas.push(d),
    );
    expect(r.text).toBe('There are 347 albums.');
    expect(deltas.filter((d) => d.type === 'text').length).toBeGreaterThan(2);
    expect(r.usage).toEqual({ inputTokens: 42, outputTokens: 7, estimated: false });
    expect(r.finishReason).toBe('stop');
    const sent = mock.requests[0];
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.stop).toEqual(['Observation:']);
    expect(sent.body).toMatchObject({
      temperature: 0,
      max_tokens: 200,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(sent.headers.authorization).toBe('[present]');
    expect(sent.messages).toEqual([
      { role: 'system', content: 'You answer questions.' },
      { role: 'user', content: 'How many albums?' },
    ]);
  });

  it('merges tool-call deltas split across chunks, including a UTF-8 character cut across network reads', async () => {
    const args = { question: 'Beyoncé — 東京 🎵 albums', limit: 5 };
    const { model, mock } = await setup({
      script: [
        {
          text: 'Let me look.',
          toolCalls: [
            { id: 'call_1', name: 'SearchValue', arguments: args },
            { name: 'SearchColumn', arguments: '{"q":"é"}' },
          ],
          chunkSize: 3,
          splitBytes: 7,
          delayMs: 1,
        },
      ],
    });
    const deltas: ChatDelta[] = [];
    const r = await completeChat(
      model,
      {
        messages: question,
        tools: [{ name: 'SearchValue', description: 'find values', parameters: { type: 'object' } }],
      },
      (d) => deltas.push(d),
    );
    expect(r.text).toBe('Let me look.');
    expect(r.finishReason).toBe('tool_calls');
    expect(r.toolCalls).toEqual([
      { id: 'call_1', name: 'SearchValue', arguments: JSON.stringify(args) },
      { id: 'call_mock_1', name: 'SearchColumn', arguments: '{"q":"é"}' },
    ]);
    expect(JSON.parse(r.toolCalls[0].arguments)).toEqual(args);
    const pieces = deltas.filter((d) => d.type === 'tool_call' && d.index === 0 && d.argumentsDelta);
    expect(pieces.length).toBeGreaterThan(3);
    expect(deltas.find((d) => d.type === 'tool_call' && d.index === 1 && d.name)).toMatchObject({
      id: 'call_mock_1',
      name: 'SearchColumn',
    });
    expect(mock.requests[0].tools).toEqual([
      {
        type: 'function',
        function: { name: 'SearchValue', description: 'find values', parameters: { type: 'object' } },
      },
    ]);
  });

  it('maps assistant tool calls and tool results into OpenAI messages', async () => {
    const history: ChatMessage[] = [
      ...question,
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'ExecuteSQL', arguments: '{"sql":"SELECT 1"}' }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'ExecuteSQL', content: '1 row' },
    ];
    expect(toOpenAiMessages(history).slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ExecuteSQL', arguments: '{"sql":"SELECT 1"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '1 row' },
    ]);
    const { model, mock } = await setup({ script: [{ text: 'ok' }] });
    await completeChat(model, { messages: history });
    expect(mock.requests[0].messages).toEqual(toOpenAiMessages(history));
  });

  it('estimates usage when the server sends none', async () => {
    const { model } = await setup({ script: [{ text: 'Hello there, friend.', usage: false }] });
    const r = await completeChat(model, { messages: question });
    expect(r.usage?.estimated).toBe(true);
    expect(r.usage!.inputTokens).toBeGreaterThan(5);
    expect(r.usage!.outputTokens).toBeGreaterThan(2);
  });

  it('retries once without stream_options when the server refuses it, and remembers', async () => {
    const { model, mock } = await setup({ rejectStreamOptions: true, script: [{ text: 'a' }, { text: 'b' }] });
    expect((await completeChat(model, { messages: question })).text).toBe('a');
    expect((await completeChat(model, { messages: question })).text).toBe('b');
    expect(mock.requests.map((r) => 'stream_options' in (r.body ?? {}))).toEqual([true, false, false]);
  });

  it('handles servers that ignore stream and answer with JSON', async () => {
    mock = await startMockLlm({ script: [{ text: 'plain', toolCalls: [{ name: 'X', arguments: { a: 1 } }] }] });
    const url = mock.url;
    // Force a non-stream answer by rewriting the body, as a server that ignores `stream` would.
    const model = createOpenAiCompatibleModel({
      baseUrl: url,
      model: 'm',
      fetch: (input, init) =>
        fetch(input, { ...init, body: String(init?.body).replace('"stream":true', '"stream":false') }),
    });
    const deltas: ChatDelta[] = [];
    const r = await completeChat(model, { messages: question }, (d) => deltas.push(d));
    expect(r.text).toBe('plain');
    expect(r.toolCalls).toEqual([{ id: 'call_mock_0', name: 'X', arguments: '{"a":1}' }]);
    expect(r.usage).toEqual({ inputTokens: 10, outputTokens: 5, estimated: false });
    expect(deltas[0]).toEqual({ type: 'text', text: 'plain' });
  });

  it('abort mid-stream rejects quickly with llm_aborted', async () => {
    const { model } = await setup({ script: [{ text: 'x'.repeat(2000), chunkSize: 2, delayMs: 20 }] });
    const controller = new AbortController();
    const started = Date.now();
    let got = 0;
    const p = completeChat(model, { messages: question, signal: controller.signal }, () => {
      got += 1;
      if (got === 3) controller.abort();
    });
    await expect(p).rejects.toMatchObject({ code: 'llm_aborted' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('abort before the call rejects with llm_aborted', async () => {
    const { model } = await setup({ script: [{ text: 'never' }] });
    const controller = new AbortController();
    controller.abort();
    await expect(completeChat(model, { messages: question, signal: controller.signal })).rejects.toMatchObject({
      code: 'llm_aborted',
    });
  });
});

describe('OpenAI-compatible client errors', () => {
  const KEY = 'sk-test-SECRET-123456';
  async function failWith(script: MockLlmOptions['script'], extra = {}) {
    const { model, sleeps, mock } = await setup({ script }, extra);
    let error: unknown;
    let result;
    try {
      result = await completeChat(model, { messages: question });
    } catch (e) {
      error = e;
    }
    return { error: error as LlmError | undefined, result, sleeps, mock };
  }

  it('401: key refused, never echoed', async () => {
    const { error, mock } = await failWith([
      { error: { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } } },
    ]);
    expect(error).toBeInstanceOf(LlmError);
    expect(error?.code).toBe('llm_auth');
    expect(error?.message).toMatch(/API key was refused/);
    expect(error?.message).not.toContain(KEY);
    expect(error?.message).not.toContain('SECRET');
    expect(mock.requests).toHaveLength(1); // auth errors are not retried
  });

  it('404: model not found', async () => {
    const { error } = await failWith([
      { error: { status: 404, body: { error: { message: 'The model `mock-model` does not exist' } } } },
    ]);
    expect(error?.code).toBe('llm_model_not_found');
    expect(error?.message).toContain('"mock-model"');
  });

  it('429 with Retry-After, then success after a retry', async () => {
    const { error, result, sleeps } = await failWith([
      { error: { status: 429, headers: { 'Retry-After': '3' } } },
      { text: 'after the wait' },
    ]);
    expect(error).toBeUndefined();
    expect(result?.text).toBe('after the wait');
    expect(sleeps).toEqual([3000]);
  });

  it('500 twice then success; 500 three times gives llm_server', async () => {
    const ok = await failWith([{ error: { status: 500 } }, { error: { status: 502 } }, { text: 'fine' }]);
    expect(ok.result?.text).toBe('fine');
    expect(ok.sleeps).toHaveLength(2);
    expect(ok.sleeps[1]).toBeGreaterThanOrEqual(ok.sleeps[0] / 2);
    await mock?.close();
    const bad = await failWith([{ error: { status: 500 } }, { error: { status: 500 } }, { error: { status: 503 } }]);
    expect(bad.error?.code).toBe('llm_server');
    expect(bad.error?.retryable).toBe(true);
    expect(bad.mock.requests).toHaveLength(3);
  });

  it('context too long', async () => {
    const { error } = await failWith([
      {
        error: {
          status: 400,
          body: {
            error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' },
          },
        },
      },
    ]);
    expect(error?.code).toBe('llm_context_length');
  });

  it('network failure at the Ollama address mentions OLLAMA_ORIGINS, without the key', async () => {
    const model = createOpenAiCompatibleModel({
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.2',
      apiKey: KEY,
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = (await completeChat(model, { messages: question }).catch((e: unknown) => e)) as LlmError;
    expect(error.code).toBe('llm_network');
    expect(error.message).toContain('OLLAMA_ORIGINS');
    expect(error.message).toContain('Ollama');
    expect(error.message).not.toContain(KEY);
  });

  it('an error event inside the stream becomes an LlmError, not a hang', async () => {
    const model = createOpenAiCompatibleModel({
      baseUrl: 'http://x/v1',
      model: 'm',
      fetch: async () =>
        new Response(
          'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"error":{"message":"prompt is too long for the context window"}}\n\n',
          {
            headers: { 'Content-Type': 'text/event-stream' },
          },
        ),
    });
    await expect(completeChat(model, { messages: question })).rejects.toMatchObject({
      code: 'llm_context_length',
      retryable: false,
    });
  });
});
