// Red team, round four, item 15: a server given the key echoes it as decimal bytes, octal or hex
// escapes, ROT13 or plain text in short chunks between words, every other character, or hidden
// between other characters. None of it may reach `dowser ask`'s stderr, its --json events or
// its transcript (decision 070: after a keyed request, a server's words are quoted only when no
// disguise of the key is in them).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import { WITHHELD } from '../../core/llm/errors';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { disguisedPieces, KEY_DISGUISES, ROUND_FOUR_DISGUISES } from '../../test-support/key-disguises';
import { openaiFlags, runCli } from '../test-support/run-cli';

const VAR = 'DOWSER_RED_TEAM_15_KEY';
/** Not the key the older tests use: the same shape, other characters. */
const KEY = 'sk-proj-Hw4nR8tLq2Zx6VbM9cJk3PdF7sGy1TaE';
let dir: string;
let db: string;
let mock: MockLlm | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-red-team-15-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  delete process.env[VAR];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('red team 4, item 15: key echoes in encodings the gate did not know', () => {
  it.each(ROUND_FOUR_DISGUISES)('the key %s reaches neither stderr, the events nor the transcript', async (name) => {
    const echo = KEY_DISGUISES[name](KEY);
    process.env[VAR] = KEY;
    mock = await startMockLlm({
      script: () => ({ error: { status: 400, body: { error: { message: `Bad key ${echo}` } } } }),
    });
    const transcript = join(dir, `t-${ROUND_FOUR_DISGUISES.indexOf(name)}.json`);
    const r = await runCli([
      'ask',
      '--db',
      db,
      '--question',
      'How many customers?',
      ...openaiFlags(mock.url, 'mock-model'),
      '--mode',
      'agent',
      '--api-key-env',
      VAR,
      '--json',
      '--transcript',
      transcript,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout + r.stderr).toContain(WITHHELD);
    for (const text of [r.stdout, r.stderr, readFileSync(transcript, 'utf8')])
      expect(disguisedPieces(text, KEY)).toEqual([]);
  });
});
