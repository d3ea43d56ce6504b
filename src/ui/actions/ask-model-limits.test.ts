// @vitest-environment jsdom
// The page's run ends against a model server that stalls (decision 068): a server dripping a byte
// every few milliseconds without ever finishing a reply at the setting "Time limit of an answer",
// one that sends no answer at "Wait for the model"; each run fails with a message naming its
// setting, is kept in History, and the next question can be asked.

import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from '../../core/llm/openai-compatible';
import { schemaOf } from '../../test-support/schema-of';
import { DEFAULT_SETTINGS } from '../lib/app-settings';
import { createRunHistory } from '../lib/run-history';
import { bindServices } from '../services/current';
import type { PageEngine } from '../services/types';
import { useApp } from '../store/app-store';
import { useAsk } from '../store/ask-store';
import { fakeServices } from '../test-support/render';
import { ask } from './ask';

const BASE_URL = 'http://localhost:8000/v1';
const DB = { id: 'db1', name: 'shop.sqlite', sizeBytes: 1, status: 'ready' as const, progress: 1 };
const encoder = new TextEncoder();

/** The first byte of an event, then one more every 5 ms, never its end; or nothing at all. */
const servers: Record<'drip' | 'silent', typeof fetch> = {
  drip: async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(encoder.encode('data: {"choices":[{"index":0,"delta":{"content":"')),
        pull: async (c) => {
          await new Promise((r) => setTimeout(r, 5));
          c.enqueue(encoder.encode('x'));
        },
      }),
      { headers: { 'Content-Type': 'text/event-stream' } },
    ),
  silent: (_input, init) =>
    new Promise((_, reject) =>
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    ),
};

afterEach(() => useApp.setState({ settings: DEFAULT_SETTINGS }));

describe('a run against a stalled model server ends, and the page goes on', () => {
  it('ends a slow-loris at the answer time and a silent server at the model wait, each kept in History', async () => {
    const history = createRunHistory(createStore('model-limits', 'runs'));
    let server: keyof typeof servers = 'drip';
    bindServices(
      fakeServices({
        engine: {
          introspect: async () => schemaOf({ customers: ['id integer pk', 'city'] }),
          linkQuestion: async () => [],
          buildTools: () => new Promise(() => {}),
        } as unknown as PageEngine,
        runHistory: history,
        examples: { list: async () => [], save: async () => null },
        // The limits the page hands over (its settings), as the real factory passes them on.
        createChatModel: async (_settings, _progress, _send, limits) =>
          createOpenAiCompatibleModel({ baseUrl: BASE_URL, model: 'm', maxRetries: 0, limits, fetch: servers[server] }),
      }),
    );
    // Below what the settings form allows, so the test is quick; the form keeps people at 1 s and 1 min.
    useApp.setState({ databases: [DB], settings: { ...DEFAULT_SETTINGS, modelWaitMs: 100, answerTimeMs: 300 } });
    useAsk.getState().setModel({ provider: 'openai', baseUrl: BASE_URL, model: 'm' });

    await ask(DB.id, 'Which customers live in Paris?', '', { mode: 'agent' });
    const first = useAsk.getState().runs[DB.id]!;
    expect(first.status).toBe('failed');
    expect(first.events.at(-1)).toMatchObject({
      type: 'error',
      code: 'answer_limit',
      message: expect.stringMatching(/No answer within 0\.3 s .*raise "Time limit of an answer" in Settings/),
    });

    server = 'silent';
    await ask(DB.id, 'Which customers live in Lyon?', '', { mode: 'agent' });
    const second = useAsk.getState().runs[DB.id]!;
    expect(second.status).toBe('failed');
    expect(second.events.at(-1)).toMatchObject({
      code: 'llm_timeout',
      message: expect.stringMatching(/sent no answer within 0\.1 s .*raise "Wait for the model" in Settings/),
    });
    expect((await history.list(DB.name)).map((r) => r.status)).toEqual(['failed', 'failed']);
  });
});
