// @vitest-environment jsdom
// Issue item 9: a server given the key echoes it disguised in a 400/401 body. The run the page
// shows, keeps in History and exports (JSON, Markdown) must hold no piece of it.

import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { runToJson, runToMarkdown } from '../../core/export/run-export';
import { createOpenAiCompatibleModel } from '../../core/llm/openai-compatible';
import { redactDeep } from '../../core/security/redact';
import { disguisedPieces, disguisesOf, FAKE_KEY } from '../../test-support/key-disguises';
import { schemaOf } from '../../test-support/schema-of';
import { knownKeys } from '../lib/model-settings';
import { createRunHistory } from '../lib/run-history';
import { bindServices } from '../services/current';
import type { PageEngine } from '../services/types';
import { useApp } from '../store/app-store';
import { useAsk } from '../store/ask-store';
import { fakeServices } from '../test-support/render';
import { ask } from './ask';

const BASE_URL = 'http://localhost:8000/v1';
const DB = { id: 'db1', name: 'shop.sqlite', sizeBytes: 1, status: 'ready' as const, progress: 1 };

async function askAgainst(status: number, body: string, n: number) {
  const history = createRunHistory(createStore(`key-echo-${n}`, 'runs'));
  const engine = {
    introspect: async () => schemaOf({ customers: ['id integer pk', 'city'] }),
    linkQuestion: async () => [],
    buildTools: () => new Promise(() => {}),
  } as unknown as PageEngine;
  bindServices(
    fakeServices({
      engine,
      runHistory: history,
      examples: { list: async () => [], save: async () => null },
      createChatModel: async () =>
        createOpenAiCompatibleModel({
          baseUrl: BASE_URL,
          model: 'm',
          apiKey: FAKE_KEY,
          maxRetries: 0,
          fetch: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }),
        }),
    }),
  );
  useApp.setState({ databases: [DB] });
  useAsk.getState().setModel({
    provider: 'openai',
    baseUrl: BASE_URL,
    model: 'm',
    apiKey: FAKE_KEY,
    keys: [{ provider: 'openai', origin: 'http://localhost:8000', key: FAKE_KEY }],
  });
  await ask(DB.id, 'Which customers live in Paris?', '', { mode: 'agent' });
  const [stored] = await history.list(DB.name);
  return stored;
}

describe('a key echoed in disguise never reaches the run, History or the exports (issue item 9)', () => {
  let n = 0;
  it.each(disguisesOf())('the key %s', async (_name, echo) => {
    for (const [status, body] of [
      [401, JSON.stringify({ error: { message: `Incorrect API key provided: ${echo}` } })],
      [400, JSON.stringify({ error: { message: `Invalid key ${echo}` } })],
      [400, `Invalid key ${echo}`],
    ] as const) {
      const stored = await askAgainst(status, body, n++);
      expect(stored?.status).toBe('failed');
      const error = stored?.events.find((e) => e.type === 'error');
      expect(error, JSON.stringify(error)).toMatchObject({
        type: 'error',
        code: status === 401 ? 'llm_auth' : 'llm_bad_response',
      });
      // What the export buttons write (RunExport.tsx: the run redacted again, then each format).
      const exported = redactDeep(stored!, knownKeys(useAsk.getState().model));
      const shown = JSON.stringify(useAsk.getState().runs[DB.id]);
      for (const text of [shown, JSON.stringify(stored), runToJson(exported), runToMarkdown(exported)])
        expect(disguisedPieces(text)).toEqual([]);
    }
  });
});
