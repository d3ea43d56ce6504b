// A reply past MAX_REPLY_CHARS is stopped with a readable error and its request cancelled
// (issue 28, item 4): an endless or megabyte-long stream no longer holds the page or the CLI.
import { describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from './openai-compatible';
import { MAX_REPLY_CHARS } from './reply-cap';

/** A server streaming `chunk` as text deltas for ever, counting what was pulled until cancelled. */
function endlessServer(chunk: string) {
  const state = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const event = encoder.encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: chunk } }] })}\n\n`);
  const fetch: typeof globalThis.fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(controller) {
          state.pulled++;
          controller.enqueue(event);
        },
        cancel() {
          state.cancelled = true;
        },
      }),
      { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
    );
  return { fetch, state };
}

describe('a reply too long to be an answer', () => {
  it('is stopped past the limit, its request cancelled, with a readable error', async () => {
    const chunk = 'x'.repeat(10_000); // no space: the case that froze the usage estimate
    const { fetch, state } = endlessServer(chunk);
    const model = createOpenAiCompatibleModel({ baseUrl: 'http://server.test/v1', model: 'm', fetch, maxRetries: 0 });
    let text = 0;
    const run = async () => {
      for await (const part of model.stream({ messages: [{ role: 'user', content: 'hi' }] }))
        if (part.type === 'text') text += part.text.length;
    };
    await expect(run()).rejects.toMatchObject({
      code: 'llm_bad_response',
      message: expect.stringContaining('passed 1,000,000 characters and was stopped'),
    });
    expect(text).toBeLessThanOrEqual(MAX_REPLY_CHARS);
    expect(state.pulled).toBeLessThan(MAX_REPLY_CHARS / chunk.length + 20);
    expect(state.cancelled).toBe(true);
  });
});
