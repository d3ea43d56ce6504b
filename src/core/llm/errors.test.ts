import { describe, expect, it } from 'vitest';
import { llmErrorFromFetchFailure, llmErrorFromResponse, parseRetryAfter, redactSecrets, retryAfterMs } from './errors';
import { backoffDelay, withRetry } from './retry';
import { sseEvents } from './sse';
import { LlmError } from './types';

const ctx = {
  provider: 'OpenAI',
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  secrets: ['sk-proj-abcdef123456'],
};

describe('llmErrorFromResponse', () => {
  it.each([
    [401, '{"error":{"message":"Incorrect API key provided: sk-proj-abcdef123456"}}', 'llm_auth', false],
    [403, 'forbidden', 'llm_auth', false],
    [404, '{"error":{"message":"The model `gpt-9` does not exist"}}', 'llm_model_not_found', false],
    [400, '{"error":{"message":"x is not a valid model ID"}}', 'llm_model_not_found', false],
    [429, '{"error":{"message":"Rate limit reached"}}', 'llm_rate_limit', true],
    [500, 'Internal Server Error', 'llm_server', true],
    [503, '<html><body>Service Unavailable</body></html>', 'llm_server', true],
    [400, '{"error":{"code":"context_length_exceeded","message":"too many"}}', 'llm_context_length', false],
    [
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 201000 tokens > 200000 maximum"}}',
      'llm_context_length',
      false,
    ],
    [
      400,
      '{"error":{"message":"the request exceeds the available context size, try increasing it"}}',
      'llm_context_length',
      false,
    ],
    [500, '{"error":"input length exceeds the context length"}', 'llm_context_length', false],
    [422, '{"detail":"bad field"}', 'llm_bad_response', false],
  ])('HTTP %i %s → %s', (status, body, code, retryable) => {
    const e = llmErrorFromResponse(status, body, ctx);
    expect(e.code).toBe(code);
    expect(e.retryable).toBe(retryable);
    expect(e.status).toBe(status);
    expect(e.message).not.toContain('abcdef123456');
    expect(e.message.length).toBeLessThan(600);
  });

  it('names the provider and the model', () => {
    expect(llmErrorFromResponse(401, '', ctx).message).toMatch(/^The API key was refused by OpenAI/);
    expect(llmErrorFromResponse(404, '', ctx).message).toContain('"gpt-4o-mini"');
    const ollama = llmErrorFromResponse(404, '{"error":"model \\"qwen3\\" not found, try pulling it first"}', {
      provider: 'Ollama',
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen3',
    });
    expect(ollama.message).toContain('ollama pull qwen3');
  });

  it('honours Retry-After in seconds and as an HTTP date', () => {
    expect(retryAfterMs(llmErrorFromResponse(429, '', { ...ctx, retryAfter: '7' }))).toBe(7000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:12 GMT', now)).toBe(12_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(retryAfterMs(llmErrorFromResponse(429, '', ctx))).toBeUndefined();
  });

  it('redacts keys it was told about and key-shaped text it was not', () => {
    expect(redactSecrets('key mykey-1234-5678-abcd and sk-other0987654321', ['mykey-1234-5678-abcd'])).toBe(
      'key [redacted] and [redacted]',
    );
  });
});

describe('llmErrorFromFetchFailure', () => {
  it('network TypeError → llm_network with a CORS hint; Ollama gets OLLAMA_ORIGINS; LM Studio its switch', () => {
    const plain = llmErrorFromFetchFailure(new TypeError('Failed to fetch'), {
      provider: 'vLLM',
      baseUrl: 'http://gpu:8000/v1?key=abc',
    });
    expect(plain.code).toBe('llm_network');
    expect(plain.message).toContain('CORS');
    expect(plain.message).not.toContain('key=abc');
    expect(plain.message).not.toContain('OLLAMA_ORIGINS');
    expect(
      llmErrorFromFetchFailure(new TypeError('fetch failed'), {
        provider: 'Ollama',
        baseUrl: 'http://127.0.0.1:11434/v1',
      }).message,
    ).toContain('OLLAMA_ORIGINS');
    expect(
      llmErrorFromFetchFailure(new TypeError('x'), { provider: 'LM Studio', baseUrl: 'http://localhost:1234/v1' })
        .message,
    ).toContain('Enable CORS');
  });

  it('AbortError → llm_aborted', () => {
    expect(llmErrorFromFetchFailure(new DOMException('aborted', 'AbortError'), { provider: 'x' }).code).toBe(
      'llm_aborted',
    );
  });
});

describe('withRetry', () => {
  const retryable = () => new LlmError('llm_server', 'boom', { status: 500, retryable: true });

  it('backs off exponentially with jitter and gives up after maxRetries', async () => {
    const sleeps: number[] = [];
    let calls = 0;
    const p = withRetry(
      async () => {
        calls += 1;
        throw retryable();
      },
      { maxRetries: 3, baseMs: 100, random: () => 1, sleep: async (ms) => void sleeps.push(ms) },
    );
    await expect(p).rejects.toMatchObject({ code: 'llm_server' });
    expect(calls).toBe(4);
    expect(sleeps).toEqual([100, 200, 400]);
    expect(backoffDelay(0, { baseMs: 100, random: () => 0 })).toBe(50);
  });

  it('does not retry non-retryable errors or waits longer than the cap', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls += 1;
          throw new LlmError('llm_auth', 'no');
        },
        { maxRetries: 3, baseMs: 1 },
      ),
    ).rejects.toMatchObject({ code: 'llm_auth' });
    expect(calls).toBe(1);
    const long = llmErrorFromResponse(429, '', { provider: 'p', retryAfter: '3600' });
    await expect(withRetry(async () => Promise.reject(long), { maxRetries: 3, baseMs: 1 })).rejects.toBe(long);
  });

  it('an abort during the backoff rejects with llm_aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    const started = Date.now();
    await expect(
      withRetry(async () => Promise.reject(retryable()), { maxRetries: 2, baseMs: 10_000, signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'llm_aborted',
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('sseEvents', () => {
  it('decodes UTF-8 characters and events cut at every byte', async () => {
    const text = 'data: {"t":"é東🎵"}\n\n: comment\n\ndata: second\ndata: line\n\ndata: [DONE]';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const b of bytes) c.enqueue(new Uint8Array([b]));
        c.close();
      },
    });
    const seen: string[] = [];
    for await (const e of sseEvents(new Response(body))) seen.push(e.data);
    expect(seen).toEqual(['{"t":"é東🎵"}', 'second\nline', '[DONE]']);
  });
});
