// An answer has a time and a reply budget (decision 068): a server dripping a byte every few
// milliseconds (never idle, never a whole reply) and one streaming without end both end the run
// with an `answer_limit` error after the events it gave; the person's time is not counted, and
// Stop is still Stop. Fake timers, or no timer at all: nothing here depends on the machine's speed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOpenAiCompatibleModel } from '../llm/openai-compatible';
import { schemaOf } from '../../test-support/schema-of';
import { AnswerBudget, answerLimits, type AnswerLimits } from './answer-budget';
import { runAnswer } from './answer-mode';
import type { AgentEvent } from './events';
import type { AgentTools } from './loop';

afterEach(() => {
  vi.useRealTimers();
});

const encoder = new TextEncoder();
const sse = (json: unknown) => encoder.encode(`data: ${JSON.stringify(json)}\n\n`);
const schema = schemaOf({ orders: ['id integer pk', 'total real'] });
const tools: AgentTools = { call: () => Promise.reject(new Error('no tool is called here')) };

/** What the server saw of the client: requests made, and which of them were cancelled. */
interface Seen {
  requests: number;
  cancelled: number;
}

/** The first request gets a reply without a call; every later one gets `body`. */
function server(body: (seen: Seen) => ReadableStream<Uint8Array>) {
  const seen: Seen = { requests: 0, cancelled: 0 };
  const fetch: typeof globalThis.fetch = async () => {
    const first = seen.requests++ === 0;
    const stream = first
      ? new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(sse({ choices: [{ index: 0, delta: { content: 'Let me think about orders.' } }] }));
            c.enqueue(sse({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5 } }));
            c.enqueue(encoder.encode('data: [DONE]\n\n'));
            c.close();
          },
        })
      : body(seen);
    return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
  };
  return { fetch, seen };
}

/** A slow-loris: the start of an event, then one more byte of it every 5 ms, never its end. */
const drip = (seen: Seen) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(encoder.encode('data: {"choices":[{"index":0,"delta":{"content":"'));
    },
    async pull(c) {
      await new Promise((r) => setTimeout(r, 5));
      c.enqueue(encoder.encode('x'));
    },
    cancel() {
      seen.cancelled++;
    },
  });

/** Text deltas without end, as fast as they are read. */
const endless = (seen: Seen) =>
  new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(sse({ choices: [{ index: 0, delta: { content: 'x'.repeat(1000) } }] }));
    },
    cancel() {
      seen.cancelled++;
    },
  });

async function answer(fetch: typeof globalThis.fetch, limits: AnswerLimits, signal?: AbortSignal) {
  const model = createOpenAiCompatibleModel({ baseUrl: 'http://server.test/v1', model: 'm', fetch, maxRetries: 0 });
  const events: AgentEvent[] = [];
  const run = runAnswer('agent', { question: 'Total of orders?', model, tools, schema, signal, answerLimits: limits });
  for await (const e of run) events.push(e);
  return events;
}

const terminal = (events: AgentEvent[]) => events.filter((e) => e.type === 'final' || e.type === 'error');

describe('the budget of an answer', () => {
  it('ends a slow-loris at the time limit, keeps the events before it, and aborts the request', async () => {
    vi.useFakeTimers();
    const { fetch, seen } = server(drip);
    const running = answer(fetch, answerLimits(1_000, 'raise it with --answer-time <s>'));
    await vi.advanceTimersByTimeAsync(1_500);
    const events = await running;
    expect(events.map((e) => e.type)).toEqual([
      'status',
      'thought_delta',
      'usage',
      'thought',
      'observation',
      'status',
      'error',
    ]);
    expect(events.find((e) => e.type === 'thought')).toMatchObject({ text: 'Let me think about orders.' });
    expect(terminal(events)).toEqual([
      expect.objectContaining({
        type: 'error',
        code: 'answer_limit',
        message:
          'No answer within 1 s (the time limit of an answer), so the run was stopped; what it did so far is kept. If the model is just slow, raise it with --answer-time <s>.',
      }),
    ]);
    expect(seen).toEqual({ requests: 2, cancelled: 1 });
  });

  it('ends a stream without end at the characters of all its replies, and aborts the request', async () => {
    const { fetch, seen } = server(endless);
    const events = await answer(fetch, { timeMs: 60_000, replyChars: 5_000 });
    expect(terminal(events)).toEqual([
      expect.objectContaining({
        code: 'answer_limit',
        message: expect.stringContaining("The model's replies in this answer passed 5,000 characters"),
      }),
    ]);
    expect(events.find((e) => e.type === 'thought')).toMatchObject({ text: 'Let me think about orders.' });
    expect(seen).toEqual({ requests: 2, cancelled: 1 });
  });

  it('leaves Stop as Stop', async () => {
    const { fetch, seen } = server(drip);
    const controller = new AbortController();
    const running = answer(fetch, answerLimits(60_000), controller.signal);
    await vi.waitFor(() => expect(seen.requests).toBe(2));
    controller.abort();
    const events = await running;
    expect(terminal(events)).toEqual([expect.objectContaining({ type: 'error', code: 'aborted' })]);
  });

  it("does not count the person's time", async () => {
    vi.useFakeTimers();
    const budget = new AnswerBudget(answerLimits(1_000));
    vi.advanceTimersByTime(600);
    await budget.whileAsked(async () => {
      vi.advanceTimersByTime(10_000);
    });
    expect(budget.message).toBeNull();
    vi.advanceTimersByTime(399);
    expect(budget.message).toBeNull();
    expect(budget.spent.aborted).toBe(false);
    vi.advanceTimersByTime(2);
    expect(budget.message).toContain('No answer within 1 s');
    expect(budget.spent.aborted).toBe(true);
    budget.end();
  });
});
