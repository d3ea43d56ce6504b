// Issue item 9: a server given the key echoes it disguised (reversed, base64, spaced, …) in an
// error body. `dowser ask` prints the error on stderr and keeps it in the transcript: neither
// may hold a piece of the key; a keyless server's explanation is still printed.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type MockReply } from '../../../e2e/mock-llm/server';
import { WITHHELD } from '../../core/llm/errors';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { disguisedPieces, disguisesOf, FAKE_KEY } from '../../test-support/key-disguises';
import { openaiFlags, runCli } from '../test-support/run-cli';

const VAR = 'DOWSER_KEY_ECHO_TEST_KEY';
let dir: string;
let db: string;
let mock: MockLlm | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-key-echo-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
});

afterEach(async () => {
  await mock?.close();
  mock = undefined;
  delete process.env[VAR];
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ask(reply: MockReply, key?: string) {
  if (key) process.env[VAR] = key;
  mock = await startMockLlm({ script: () => reply });
  const transcript = join(dir, `t-${Math.random().toString(36).slice(2)}.json`);
  const r = await runCli([
    'ask',
    '--db',
    db,
    '--question',
    'How many customers?',
    ...openaiFlags(mock.url, 'mock-model'),
    '--mode',
    'agent',
    ...(key ? ['--api-key-env', VAR] : []),
    '--transcript',
    transcript,
  ]);
  return { ...r, transcript: readFileSync(transcript, 'utf8') };
}

describe('dowser ask: a key echoed in disguise reaches neither stderr nor the transcript', () => {
  it.each(disguisesOf())('HTTP 400, JSON body, the key %s', async (_name, echo) => {
    const r = await ask({ error: { status: 400, body: { error: { message: `Invalid key ${echo}` } } } }, FAKE_KEY);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`error [llm_bad_response]: the model server at ${mock!.url}`);
    expect(r.stderr).toContain(WITHHELD);
    for (const text of [r.stdout, r.stderr, r.transcript]) expect(disguisedPieces(text)).toEqual([]);
  });

  it.each([401, 400])('HTTP %i, plain-text body holding every disguise', async (status) => {
    const body = disguisesOf()
      .map(([, echo]) => `bad key ${echo}`)
      .join('\n');
    const r = await ask({ error: { status, body } }, FAKE_KEY);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error \[llm_(auth|bad_response)\]/);
    for (const text of [r.stdout, r.stderr, r.transcript]) expect(disguisedPieces(text)).toEqual([]);
  });

  it("a keyless local server's own explanation is printed", async () => {
    const r = await ask({ error: { status: 400, body: 'llama runner process has terminated: exit status 2' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The server said: llama runner process has terminated: exit status 2');
    expect(r.stderr).not.toContain(WITHHELD);
  });
});
