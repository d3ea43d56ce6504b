// `dowser chat`: questions typed one after another, each following up on the answers before it,
// with /new, /sql and /export; the model behind the mock OpenAI-compatible server.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm, type RecordedRequest } from '../../../e2e/mock-llm/server';
import { CHECK_SYSTEM_START } from '../../core/agent/explain';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { captureIo, openaiFlags, runCli } from '../test-support/run-cli';
import { runChat } from './chat';

let dir: string;
let db: string;
let mock: MockLlm | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-chat-'));
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
  'How many customers are there?': 'SELECT count(*) FROM customers',
};
const asked = (req: RecordedRequest) =>
  [...JSON.stringify(req.messages).matchAll(/Question: \\"([^"\\]*)\\"/g)].at(-1)?.[1] ?? '';
const notTTY = { isTTY: false, ask: async () => '' };
async function* linesOf(lines: string[]) {
  for (const l of lines) yield l;
}

describe('dowser chat', () => {
  it('answers each question with the conversation so far; /new, /sql and /export work', async () => {
    mock = await startMockLlm({
      script: (req) =>
        JSON.stringify(req.messages).includes(CHECK_SYSTEM_START)
          ? { text: 'Verdict: match\nExplanation: The totals.' }
          : { text: '```sql\n' + ANSWERS[asked(req)] + '\n```' },
    });
    const saved = join(dir, 'conversation.json');
    const { io, out } = captureIo();
    const code = await runChat(
      ['--db', db, ...openaiFlags(mock.url)],
      io,
      linesOf([
        'Total of orders per status?',
        '',
        'and only the paid ones?',
        '/sql',
        `/export ${saved}`,
        '/new',
        'How many customers are there?',
        '/nope',
        '/quit',
        'never asked',
      ]),
      notTTY,
    );
    expect(code).toBe(0);
    const answers = mock.requests.filter((r) => !JSON.stringify(r.messages).includes(CHECK_SYSTEM_START));
    expect(answers.map(asked)).toEqual([
      'Total of orders per status?',
      'and only the paid ones?',
      'How many customers are there?',
    ]);
    expect(JSON.stringify(answers[0].messages)).not.toContain('Earlier in this conversation');
    expect(JSON.stringify(answers[1].messages)).toContain('1. Question: \\"Total of orders per status?\\"');
    // After /new the conversation starts over.
    expect(JSON.stringify(answers[2].messages)).not.toContain('Earlier in this conversation');
    expect(out.stdout).toContain(`${ANSWERS['and only the paid ones?']}\n`);
    expect(out.stdout).toContain('Saved 2 turns to');
    expect(out.stdout).toContain('New conversation.');
    expect(out.stdout).toContain('Unknown command /nope');
    // The export is a conversation dowser ask --continue goes on from.
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toMatchObject({
      question: 'and only the paid ones?',
      history: [{ question: 'Total of orders per status?' }],
    });
    const cont = await runCli([
      'ask',
      '--db',
      db,
      '--question',
      'How many customers are there?',
      ...openaiFlags(mock.url),
      '--continue',
      saved,
    ]);
    expect(cont.code).toBe(0);
    expect(JSON.stringify(mock.requests.at(-2)!.messages)).toContain('2. Question: \\"and only the paid ones?\\"');
  });

  it('refuses the flags of a single run', async () => {
    const r = await runCli(['chat', '--db', db, '--provider', 'scripted', '--question', 'q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--question is for dowser ask');
  });
});
