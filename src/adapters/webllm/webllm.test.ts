import { describe, expect, it, vi } from 'vitest';
import { completeChat } from '../../core/llm/complete';
import type { CompletionJson } from '../../core/llm/openai-stream';
import { LlmError, type ChatDelta } from '../../core/llm/types';
import { createWebLlmModel, toWebLlmMessages, type WebLlmEngine, type WebLlmRequest } from './chat-model';
import { WEBLLM_MODELS } from '../../core/llm/webllm-models';
import { NO_WEBGPU_MESSAGE, webgpuAvailable } from './webgpu';

describe('webgpuAvailable', () => {
  it('says plainly when the browser has no WebGPU', async () => {
    const check = await webgpuAvailable({});
    expect(check).toEqual({ ok: false, reason: `${NO_WEBGPU_MESSAGE}.` });
    if (!check.ok) expect(check.reason).toMatch(/Chrome\/Edge 113\+.*Ollama/);
    expect(await webgpuAvailable(undefined)).toMatchObject({ ok: false });
  });

  it('is not ok when WebGPU offers no adapter, or asking for one fails', async () => {
    const none = await webgpuAvailable({ gpu: { requestAdapter: async () => null } });
    expect(none).toMatchObject({ ok: false });
    if (!none.ok) expect(none.reason).toContain('no GPU adapter');
    const broken = await webgpuAvailable({ gpu: { requestAdapter: () => Promise.reject(new Error('blocked')) } });
    if (broken.ok) throw new Error('expected not ok');
    expect(broken.reason).toContain('blocked');
  });

  it('is ok with an adapter', async () => {
    expect(await webgpuAvailable({ gpu: { requestAdapter: async () => ({ name: 'fake' }) } })).toEqual({ ok: true });
  });
});

const chunk = (content: string | null, finish: string | null = null): CompletionJson => ({
  choices: [{ delta: { content }, finish_reason: finish }],
});

/** A fake MLCEngine: records requests and streams the chunks it is given. */
function fakeEngine(chunks: CompletionJson[], opts: { pauseAfter?: number } = {}) {
  const requests: WebLlmRequest[] = [];
  let interrupted = false;
  let release: () => void = () => undefined;
  const engine: WebLlmEngine = {
    chat: {
      completions: {
        async create(request) {
          requests.push(structuredClone(request));
          return (async function* () {
            for (const [i, c] of chunks.entries()) {
              if (interrupted) return;
              if (i === opts.pauseAfter) await new Promise<void>((r) => (release = r));
              yield c;
            }
          })();
        },
      },
    },
    interruptGenerate: vi.fn(() => {
      interrupted = true;
      release();
    }),
  };
  return { engine, requests };
}

const REQUEST = {
  messages: [
    { role: 'system' as const, content: 'sys' },
    { role: 'user' as const, content: 'question' },
    { role: 'assistant' as const, content: 'Thought: look\nAction: search_value {"query":"x"}' },
    { role: 'user' as const, content: 'Observation: found' },
  ],
  stop: ['\nObservation:'],
  temperature: 0,
  maxTokens: 300,
};

describe('createWebLlmModel', () => {
  it('loads lazily through the injected loader, passing progress and the context window', async () => {
    const { engine } = fakeEngine([]);
    const progress: unknown[] = [];
    const loadEngine = vi.fn(
      async (_m: string, report: (p: { progress: number; text: string; elapsedMs: number }) => void) => {
        report({ progress: 0.5, text: 'Fetching param cache[1/2]', elapsedMs: 1200 });
        return engine;
      },
    );
    const model = await createWebLlmModel({
      model: WEBLLM_MODELS[0].id,
      onProgress: (p) => progress.push(p),
      loadEngine,
    });
    expect(loadEngine).toHaveBeenCalledWith(WEBLLM_MODELS[0].id, expect.any(Function), 8192);
    expect(progress).toEqual([{ progress: 0.5, text: 'Fetching param cache[1/2]', elapsedMs: 1200 }]);
    expect(model).toMatchObject({ provider: 'webllm', model: WEBLLM_MODELS[0].id, supportsTools: false });
  });

  it('maps the request to chat.completions.create and streams text deltas, with usage from the last chunk', async () => {
    const { engine, requests } = fakeEngine([
      chunk('Thought: '),
      chunk('I know.'),
      chunk('', 'stop'),
      { choices: [], usage: { prompt_tokens: 120, completion_tokens: 7 } },
    ]);
    const model = await createWebLlmModel({ model: 'm', loadEngine: async () => engine });
    const deltas: ChatDelta[] = [];
    const r = await completeChat(model, REQUEST, (d) => deltas.push(d));
    expect(requests[0]).toEqual({
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'question' },
        { role: 'assistant', content: 'Thought: look\nAction: search_value {"query":"x"}' },
        { role: 'user', content: 'Observation: found' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      stop: ['\nObservation:'],
      temperature: 0,
      max_tokens: 300,
    });
    expect(deltas).toEqual([
      { type: 'text', text: 'Thought: ' },
      { type: 'text', text: 'I know.' },
    ]);
    expect(r).toEqual({
      text: 'Thought: I know.',
      toolCalls: [],
      usage: { inputTokens: 120, outputTokens: 7, estimated: false },
      finishReason: 'stop',
    });
  });

  it('estimates usage when the engine reports none, and maps length', async () => {
    const { engine } = fakeEngine([chunk('cut off'), chunk(null, 'length')]);
    const model = await createWebLlmModel({ model: 'm', loadEngine: async () => engine });
    const r = await completeChat(model, { messages: [{ role: 'user', content: 'hi' }] });
    expect(r.finishReason).toBe('length');
    expect(r.usage).toMatchObject({ estimated: true });
    expect(r.usage!.outputTokens).toBeGreaterThan(0);
  });

  it('turns tool messages into user text and merges neighbours with the same role', () => {
    expect(
      toWebLlmMessages([
        { role: 'system', content: 's' },
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', toolCalls: [{ id: '1', name: 'done', arguments: '{}' }] },
        { role: 'tool', toolCallId: '1', name: 'done', content: 'ok' },
        { role: 'user', content: 'more' },
      ]),
    ).toEqual([
      { role: 'system', content: 's' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'Observation: ok\n\nmore' },
    ]);
  });

  it('stops with interruptGenerate when the signal aborts, as llm_aborted', async () => {
    const { engine } = fakeEngine([chunk('one '), chunk('two '), chunk('three')], { pauseAfter: 1 });
    const model = await createWebLlmModel({ model: 'm', loadEngine: async () => engine });
    const controller = new AbortController();
    const deltas: ChatDelta[] = [];
    const pending = completeChat(model, { ...REQUEST, signal: controller.signal }, (d) => {
      deltas.push(d);
      controller.abort();
    });
    await expect(pending).rejects.toMatchObject({ code: 'llm_aborted' });
    expect(engine.interruptGenerate).toHaveBeenCalledTimes(1);
    expect(deltas).toHaveLength(1);
    await expect(completeChat(model, { ...REQUEST, signal: controller.signal })).rejects.toMatchObject({
      code: 'llm_aborted',
    });
  });

  it('maps WebLLM errors to LlmError codes, at load time and while generating', async () => {
    const named = (name: string, message: string) => Object.assign(new Error(message), { name });
    const load = (e: Error) => createWebLlmModel({ model: 'nope', loadEngine: () => Promise.reject(e) });
    await expect(load(named('ModelNotFoundError', 'Cannot find model record'))).rejects.toMatchObject({
      code: 'llm_model_not_found',
    });
    await expect(load(named('WebGPUNotAvailableError', 'WebGPU is not supported'))).rejects.toMatchObject({
      code: 'llm_server',
      message: expect.stringContaining('no WebGPU'),
    });
    await expect(load(new TypeError('Failed to fetch'))).rejects.toMatchObject({
      code: 'llm_network',
      retryable: true,
    });
    await expect(load(named('DeviceLostError', 'The WebGPU device was lost.'))).rejects.toMatchObject({
      code: 'llm_server',
      message: expect.stringContaining('smaller model'),
    });

    const engine: WebLlmEngine = {
      chat: {
        completions: {
          create: () =>
            Promise.reject(named('ContextWindowSizeExceededError', 'Prompt tokens exceed context window size')),
        },
      },
      interruptGenerate: () => undefined,
    };
    const model = await createWebLlmModel({ model: 'm', loadEngine: async () => engine });
    const err = await completeChat(model, REQUEST).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ code: 'llm_context_length' });
  });

  it('runs one generation at a time', async () => {
    const order: string[] = [];
    let n = 0;
    const engine: WebLlmEngine = {
      chat: {
        completions: {
          async create() {
            const id = ++n;
            order.push(`start ${id}`);
            return (async function* () {
              await new Promise((r) => setTimeout(r, 5));
              yield chunk(`reply ${id}`, 'stop');
              order.push(`end ${id}`);
            })();
          },
        },
      },
      interruptGenerate: () => undefined,
    };
    const model = await createWebLlmModel({ model: 'm', loadEngine: async () => engine });
    const [a, b] = await Promise.all([completeChat(model, REQUEST), completeChat(model, REQUEST)]);
    expect([a.text, b.text]).toEqual(['reply 1', 'reply 2']);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });
});
