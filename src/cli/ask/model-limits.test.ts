// `dowser ask --timeout 5` ran for ever against a model server that stalls: --timeout limits SQL
// only (decision 068). Now a server that sends no answer, sends its headers and then nothing, or
// drips a byte every 50 ms without ever finishing a reply ends the run with exit 1 and a message
// naming the limit and the flag that raises it; the events before stay in the transcript.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type MockReply } from '../../../e2e/mock-llm/server';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { openaiFlags, runCli } from '../test-support/run-cli';

let dir: string;
let db: string;
let mock: MockLlm | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-limits-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const PLAN = { sub_questions: [{ text: 'Paid orders from Paris', tables: [{ table: 'orders', columns: ['total'] }] }] };

/** The agent's plan first (so the run has done something), then `stalled` for every later request. */
async function ask(stalled: MockReply, ...flags: string[]) {
  mock = await startMockLlm({
    script: (_req, index) =>
      index === 0 ? { text: 'A plan.', toolCalls: [{ name: 'submit_plan', arguments: PLAN }] } : stalled,
  });
  const transcript = join(dir, `run-${Math.random().toString(36).slice(2)}.json`);
  const r = await runCli([
    'ask',
    '--db',
    db,
    '--question',
    'Total of paid orders from Paris?',
    ...openaiFlags(mock.url),
    '--mode',
    'agent',
    '--json',
    '--timeout',
    '5',
    '--transcript',
    transcript,
    ...flags,
  ]);
  const events = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; code?: string; message?: string });
  const saved = JSON.parse(readFileSync(transcript, 'utf8')) as { events: Array<{ type: string }> };
  return { ...r, events, saved };
}

describe('dowser ask against a model server that stalls', () => {
  it('no answer at all: stopped at --model-timeout, exit 1, the flag named', async () => {
    const r = await ask({ stall: 'headers' }, '--model-timeout', '0.2');
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      type: 'error',
      code: 'llm_timeout',
      message: expect.stringMatching(/sent no answer within 0\.2 s .*raise it with --model-timeout <seconds>/),
    });
    // What was done before the stall is kept, on screen and in the transcript.
    expect(r.events.map((e) => e.type)).toContain('plan');
    expect(r.saved.events.map((e) => e.type)).toContain('plan');
  });

  it('headers, then nothing: stopped at --model-timeout', async () => {
    const r = await ask({ stall: 'body' }, '--model-timeout', '0.2');
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      code: 'llm_timeout',
      message: expect.stringContaining('answered but sent nothing of its reply within 0.2 s'),
    });
  });

  it('a byte every 50 ms, never a whole reply (slow-loris): stopped at --answer-time', async () => {
    const r = await ask({ stall: 'drip', everyMs: 50 }, '--answer-time', '0.5');
    expect(r.code).toBe(1);
    expect(r.events.at(-1)).toMatchObject({
      type: 'error',
      code: 'answer_limit',
      message: expect.stringMatching(/No answer within 0\.5 s .*raise it with --answer-time <seconds>/),
    });
    expect(r.saved.events.at(-1)).toMatchObject({ code: 'answer_limit' });
  });

  it('the other model commands too: dowser direct stops a slow-loris at --answer-time', async () => {
    mock = await startMockLlm({ script: () => ({ stall: 'drip', everyMs: 50 }) });
    const r = await runCli([
      'direct',
      '--db',
      db,
      ...openaiFlags(mock.url),
      '--json',
      '--answer-time',
      '0.3',
      'How many?',
    ]);
    expect(r.code).toBe(1);
    const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/No answer within 0\.3 s .*--answer-time/),
    });
  });

  it('refuses a limit that is no number of seconds', async () => {
    const r = await runCli([
      'ask',
      '--db',
      db,
      '--question',
      'q',
      ...openaiFlags('http://127.0.0.1:9/v1'),
      '--answer-time',
      '0',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--answer-time needs a number of seconds above 0, not "0"');
  });

  it('says the limits in --help', async () => {
    const r = await runCli(['ask', '--help']);
    expect(r.stdout).toMatch(/--model-timeout <s> +longest wait in seconds for the model's reply to begin/);
    expect(r.stdout).toMatch(/--answer-time <s> +time limit of one answer in seconds \(default 900/);
  });
});
