// Issue item 9: a server that got the key can echo it disguised (reversed, base64, spaced …) in an
// error body, and the redaction cuts only the key as written. After a keyed request the error
// quotes the server only when nothing in its words could be the key (decision 070).

import { describe, expect, it } from 'vitest';
import { disguisedPieces, disguisesOf, FAKE_KEY } from '../../test-support/key-disguises';
import { createAnthropicModel } from './anthropic';
import { completeChat } from './complete';
import { llmErrorFromResponse, WITHHELD } from './errors';
import { createOpenAiCompatibleModel } from './openai-compatible';
import { LlmError } from './types';

const keyed = { provider: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', secrets: [FAKE_KEY] };

const bodies = (echo: string): Array<[string, string]> => [
  ['JSON', JSON.stringify({ error: { message: `Invalid API key: ${echo}`, type: 'invalid_request_error' } })],
  ['plain text', `Invalid API key: ${echo}`],
];

describe('an error body echoing the key in disguise, after a keyed request', () => {
  describe.each(disguisesOf())('the key %s', (_name, echo) => {
    it.each([401, 400, 404, 422, 429, 500])('HTTP %i: the message holds no piece of it', (status) => {
      for (const [, body] of bodies(echo)) {
        const e = llmErrorFromResponse(status, body, keyed);
        expect(e.status).toBe(status);
        expect(disguisedPieces(e.message)).toEqual([]);
        if (status !== 401) expect(e.message).toContain(WITHHELD);
      }
    });
  });

  it('a short, plain message from a JSON field is still quoted', () => {
    const e = llmErrorFromResponse(
      400,
      '{"error":{"message":"Invalid value for \'temperature\': must be at most 2."}}',
      keyed,
    );
    expect(e.message).toBe(
      "OpenAI refused the request (HTTP 400). The server said: Invalid value for 'temperature': must be at most 2.",
    );
    // The model's own name is no token: its 404 sentence stays.
    const missing = llmErrorFromResponse(
      404,
      '{"error":{"message":"The model `gpt-4o-mini-2024-07-18` does not exist or you do not have access to it."}}',
      { ...keyed, model: 'gpt-4o-mini-2024-07-18' },
    );
    expect(missing.message).toContain('The server said: The model `gpt-4o-mini-2024-07-18` does not exist');
  });

  it('a keyed server is quoted only from a known JSON field: plain text and HTML are not', () => {
    for (const body of ['upstream connect error', '<html><body>Bad gateway</body></html>'])
      expect(llmErrorFromResponse(502, body, keyed).message).toBe(
        `OpenAI had a server error (HTTP 502). Try again in a moment. ${WITHHELD}`,
      );
    expect(llmErrorFromResponse(502, '', keyed).message).toBe(
      'OpenAI had a server error (HTTP 502). Try again in a moment.',
    );
  });
});

describe('a keyless local server keeps its own explanation', () => {
  const ollama = { provider: 'Ollama', baseUrl: 'http://localhost:11434/v1', model: 'qwen3' };
  it.each([
    ['JSON', '{"error":"llama runner process has terminated: exit status 2"}', 'exit status 2'],
    ['plain text', 'llama runner process has terminated: exit status 2', 'exit status 2'],
    ['a digest', `{"error":"pull model manifest: file does not exist: sha256:${'ab12'.repeat(16)}"}`, 'sha256:ab12'],
  ])('%s', (_kind, body, kept) => {
    for (const secrets of [[], ['ollama']]) {
      const e = llmErrorFromResponse(500, body, { ...ollama, secrets });
      expect(e.message).toContain(`The server said: `);
      expect(e.message).toContain(kept);
      expect(e.message).not.toContain(WITHHELD);
    }
  });
});

const failing =
  (status: number, body: string): typeof fetch =>
  async () =>
    new Response(body, { status, headers: { 'content-type': 'application/json' } });

async function errorOf(run: Promise<unknown>): Promise<LlmError> {
  const e = await run.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(LlmError);
  return e as LlmError;
}

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('both clients: the key in disguise never reaches the thrown error', () => {
  it.each(disguisesOf())('OpenAI-compatible, the key %s', async (_name, echo) => {
    for (const [status, [, body]] of [401, 400].flatMap((s) => bodies(echo).map((b) => [s, b] as const))) {
      const model = createOpenAiCompatibleModel({
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini',
        apiKey: FAKE_KEY,
        fetch: failing(status, body),
        maxRetries: 0,
      });
      const e = await errorOf(completeChat(model, ask));
      expect(e.status).toBe(status);
      expect(disguisedPieces(e.message)).toEqual([]);
    }
  });

  it.each(disguisesOf())('Anthropic, the key %s, before and inside the stream', async (_name, echo) => {
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `bad: ${echo}` } });
    for (const fetch of [
      failing(400, body),
      async () =>
        new Response(`event: error\ndata: ${body}\n\n`, {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        }),
      async () =>
        new Response(`event: message_start\ndata: not json ${echo}\n\n`, {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        }),
    ]) {
      const model = createAnthropicModel({ apiKey: FAKE_KEY, model: 'claude-x', fetch, maxRetries: 0 });
      const e = await errorOf(completeChat(model, ask));
      expect(disguisedPieces(e.message)).toEqual([]);
    }
  });

  it('OpenAI-compatible without a key keeps a plain-text explanation', async () => {
    const model = createOpenAiCompatibleModel({
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen3',
      fetch: failing(500, 'llama runner process has terminated: exit status 2'),
      maxRetries: 0,
    });
    const e = await errorOf(completeChat(model, ask));
    expect(e.message).toContain('The server said: llama runner process has terminated: exit status 2');
  });
});
