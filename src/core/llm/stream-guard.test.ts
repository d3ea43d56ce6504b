// A server that stops sending ends the request at the wait limit (decision 068): before its
// headers, after them, or in the middle of a reply; the fetch and its body are aborted, and the
// error names the limit and how to raise it. Limits of tens of milliseconds; nothing here is timed.
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from './anthropic';
import { completeChat } from './complete';
import { createOpenAiCompatibleModel } from './openai-compatible';
import { streamLimits } from './stream-guard';
import type { ChatModel } from './types';

const HINT = 'raise it with --model-timeout <s>';
const limits = streamLimits(40, HINT);
const encoder = new TextEncoder();

/** What the fake server saw of the client: its request aborted, its body cancelled. */
interface Seen {
  aborted: boolean;
  cancelled: boolean;
}

type Server = (signal: AbortSignal | undefined, seen: Seen) => Promise<Response>;

function fakeFetch(server: Server): { fetch: typeof fetch; seen: Seen } {
  const seen: Seen = { aborted: false, cancelled: false };
  const fetch: typeof globalThis.fetch = (_input, init) => {
    const signal = init?.signal ?? undefined;
    signal?.addEventListener('abort', () => (seen.aborted = true));
    return server(signal, seen);
  };
  return { fetch, seen };
}

/** No headers ever; `honours`: the fetch rejects on abort as a real one does (else it hangs on). */
const silent =
  (honours: boolean): Server =>
  (signal) =>
    new Promise((_, reject) => {
      if (honours) signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
    });

/** Headers, `first` (maybe nothing), then silence. */
const stops =
  (first: string): Server =>
  async (_signal, seen) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          if (first) controller.enqueue(encoder.encode(first));
        },
        cancel() {
          seen.cancelled = true;
        },
      }),
      { headers: { 'Content-Type': 'text/event-stream' } },
    );

const OPENAI_START = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Thinking' } }] })}\n\n`;
const ANTHROPIC_START = `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Thinking' } })}\n\n`;

const clients: Array<[string, (fetch: typeof globalThis.fetch) => ChatModel, string, string]> = [
  [
    'OpenAI-compatible',
    (fetch) => createOpenAiCompatibleModel({ baseUrl: 'http://server.test/v1', model: 'm', fetch, limits }),
    'The model server at http://server.test/v1',
    OPENAI_START,
  ],
  [
    'Anthropic',
    (fetch) => createAnthropicModel({ apiKey: 'sk-ant-k', model: 'm', fetch, limits, baseUrl: 'http://server.test' }),
    'Anthropic',
    ANTHROPIC_START,
  ],
];

const ask = (model: ChatModel) => completeChat(model, { messages: [{ role: 'user', content: 'How many?' }] });

describe.each(clients)('the %s client waits for a stalled server only so long', (_name, make, who, start) => {
  it('no headers: stopped, the request aborted, the limit and how to raise it named', async () => {
    const { fetch, seen } = fakeFetch(silent(true));
    await expect(ask(make(fetch))).rejects.toMatchObject({
      code: 'llm_timeout',
      retryable: false,
      message: `${who} sent no answer within 0.04 s (the model wait limit), so the request was stopped. If the model is just slow, ${HINT}.`,
    });
    expect(seen.aborted).toBe(true);
  });

  it('no headers from a fetch that ignores its signal: stopped all the same', async () => {
    const { fetch, seen } = fakeFetch(silent(false));
    await expect(ask(make(fetch))).rejects.toMatchObject({ code: 'llm_timeout' });
    expect(seen.aborted).toBe(true);
  });

  it('headers, then nothing: stopped, the body cancelled', async () => {
    const { fetch, seen } = fakeFetch(stops(''));
    await expect(ask(make(fetch))).rejects.toMatchObject({
      code: 'llm_timeout',
      message: expect.stringContaining(`${who} answered but sent nothing of its reply within 0.04 s`),
    });
    expect(seen).toEqual({ aborted: true, cancelled: true });
  });

  it('silence in the middle of a reply: stopped, the body cancelled', async () => {
    const { fetch, seen } = fakeFetch(stops(start));
    const model = make(fetch);
    const text: string[] = [];
    const run = completeChat(model, { messages: [{ role: 'user', content: 'q' }] }, (d) => {
      if (d.type === 'text') text.push(d.text);
    });
    await expect(run).rejects.toMatchObject({
      code: 'llm_timeout',
      message: expect.stringContaining(`${who} stopped sending in the middle of its reply: nothing came for 0.04 s`),
    });
    expect(text).toEqual(['Thinking']);
    expect(seen).toEqual({ aborted: true, cancelled: true });
  });
});

describe('the wait limit', () => {
  it('lets a reply that keeps coming through, however slowly it comes in all', async () => {
    const events = ['Slow', ' but', ' steady', '.'].map(
      (t) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: t } }] })}\n\n`,
    );
    const { fetch } = fakeFetch(async () => {
      let i = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((r) => setTimeout(r, 5));
            if (i < events.length) controller.enqueue(encoder.encode(events[i++]));
            else controller.close();
          },
        }),
        { headers: { 'Content-Type': 'text/event-stream' } },
      );
    });
    // Each pause far below the limit: whatever the machine's speed, the reply is whole.
    const model = createOpenAiCompatibleModel({
      baseUrl: 'http://server.test/v1',
      model: 'm',
      fetch,
      limits: streamLimits(5_000),
    });
    expect((await ask(model)).text).toBe('Slow but steady.');
  });

  it('is not what Stop reports: the person stopping is still llm_aborted', async () => {
    const { fetch } = fakeFetch(silent(true));
    const model = createOpenAiCompatibleModel({
      baseUrl: 'http://server.test/v1',
      model: 'm',
      fetch,
      limits: streamLimits(60_000),
    });
    const controller = new AbortController();
    const run = completeChat(model, { messages: [{ role: 'user', content: 'q' }], signal: controller.signal });
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'llm_aborted' });
  });
});
