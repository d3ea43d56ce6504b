// `dowser ask --continue`: a follow-up question on the conversation a transcript ends, by a
// model behind the mock OpenAI-compatible server (Auto, the default path).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type RecordedRequest } from '../../../e2e/mock-llm/server';
import { CHECK_SYSTEM_START } from '../../core/agent/explain';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { openaiFlags, runCli } from '../test-support/run-cli';

let dir: string;
let db: string;
let mock: MockLlm | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-continue-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const ANSWERS: Record<string, string> = {
  'Total of orders per status?': 'SELECT status, sum(total) AS total FROM orders GROUP BY status',
  'and only the paid ones?': "SELECT status, sum(total) AS total FROM orders WHERE status = 'paid' GROUP BY status",
  'how many orders is that?': "SELECT count(*) FROM orders WHERE status = 'paid'",
};
const asked = (req: RecordedRequest) =>
  [...JSON.stringify(req.messages).matchAll(/Question: \\"([^"\\]*)\\"/g)].at(-1)?.[1] ?? '';

describe('dowser ask --continue', () => {
  it('follows up on the conversation a transcript ends, and the new transcript carries it on', async () => {
    mock = await startMockLlm({
      script: (req) =>
        JSON.stringify(req.messages).includes(CHECK_SYSTEM_START)
          ? { text: 'Verdict: match\nExplanation: The totals.' }
          : { text: '```sql\n' + ANSWERS[asked(req)] + '\n```' },
    });
    const ask = (question: string, ...more: string[]) =>
      runCli(['ask', '--db', db, '--question', question, ...openaiFlags(mock!.url), ...more]);
    const t1 = join(dir, 't1.json');
    const t2 = join(dir, 't2.json');
    expect((await ask('Total of orders per status?', '--transcript', t1)).code).toBe(0);
    const second = await ask('and only the paid ones?', '--continue', t1, '--transcript', t2);
    expect(second.code).toBe(0);
    const prompt = JSON.stringify(mock.requests.at(-2)!.messages);
    expect(prompt).toContain('Earlier in this conversation');
    expect(prompt).toContain('1. Question: \\"Total of orders per status?\\"');
    expect(prompt).toContain('SELECT status, sum(total) AS total FROM orders GROUP BY status');
    expect(JSON.parse(readFileSync(t2, 'utf8')).history).toHaveLength(1);
    const third = await ask('how many orders is that?', '--continue', t2, '--json');
    expect(third.code).toBe(0);
    const followUp = JSON.stringify(mock.requests.at(-2)!.messages);
    expect(followUp).toContain('1. Question: \\"Total of orders per status?\\"');
    expect(followUp).toContain('2. Question: \\"and only the paid ones?\\"');
    expect(third.stdout).toContain('"type":"final"');
  });

  it('refuses a file that is not a transcript, before any model call', async () => {
    mock = await startMockLlm({ script: [] });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ hello: 1 }));
    const r = await runCli(['ask', '--db', db, '--question', 'q', ...openaiFlags(mock.url), '--continue', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a transcript of dowser ask --transcript');
    expect(mock.requests).toHaveLength(0);
  });
});
