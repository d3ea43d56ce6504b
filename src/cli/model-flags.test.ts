// A provider added to the registry (core/llm/providers.ts) is taken by every command that talks
// to a model, with its own key variable, and said in their errors (issue 27: one provider list).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerProvider } from '../core/llm/providers';
import { fakeProvider } from '../test-support/fake-provider';
import { buildDb, SHOP_SQL } from '../test-support/build-db';
import { parseAskArgs } from './ask/options';
import { parseEvalArgs } from './eval/eval-options';
import { runCli } from './test-support/run-cli';

let dir: string;
let db: string;
let unregister: () => void;
const SQL = "SELECT name FROM customers WHERE city = 'Paris'";
const fake = fakeProvider(
  { inPage: false, keyVariable: 'ECHO_TEST_KEY' },
  { text: '```sql\n' + SQL + '\n```\nExplanation: The customers in Paris.\nVerdict: match' },
);
const made = fake.made;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-provider-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
  process.env.ECHO_TEST_KEY = 'echo-secret';
  // Every turn the same: SQL in a block, then a verdict, whatever is asked.
  unregister = registerProvider(fake.spec);
});
afterAll(() => {
  unregister();
  delete process.env.ECHO_TEST_KEY;
  rmSync(dir, { recursive: true, force: true });
});

const echo = ['--provider', 'echo', '--model', 'e1'];

describe('a provider added to the registry', () => {
  it('answers through every command that talks to a model, with its own key variable', async () => {
    const runs = {
      ask: ['ask', '--db', db, ...echo, '--mode', 'direct', '--question', 'Who lives in Paris?'],
      direct: ['direct', '--db', db, ...echo, 'Who lives in Paris?'],
      explain: ['explain', '--db', db, ...echo, SQL],
      fix: ['fix', '--db', db, ...echo, 'SELECT nam FROM customers'],
      optimize: ['optimize', '--db', db, ...echo, SQL],
      link: ['link', '--db', db, ...echo, 'Who lives in Paris?'],
    };
    for (const [command, argv] of Object.entries(runs)) {
      made.length = 0;
      const r = await runCli(argv);
      expect({ command, code: r.code, stderr: r.stderr }).toMatchObject({ command, code: 0 });
      expect(made.map((c) => [c.model, c.apiKey, c.baseUrl])).toEqual([['e1', 'echo-secret', undefined]]);
      expect(r.stdout + r.stderr).not.toContain('echo-secret');
    }
    // chat and eval read the same flags (chat's prompt and eval's datasets are tested elsewhere).
    expect(parseAskArgs(['--db', db, ...echo], { chat: true })?.provider).toBe('echo');
    expect(
      parseEvalArgs(['--dataset', 'spider', '--data', dir, '--out', dir, ...echo, '--api-key-env', 'ECHO_TEST_KEY'])
        ?.provider,
    ).toBe('echo');
  });

  it('is named in the errors and help of the commands, and its rules are kept', async () => {
    const wrong = await runCli(['direct', '--db', db, '--provider', 'nope', '--model', 'm', 'q']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/unknown provider "nope"; one of openai, anthropic, scripted, echo/);
    const noModel = await runCli(['explain', '--db', db, '--provider', 'echo', SQL]);
    expect(noModel.stderr).toContain('--model <name> is required for --provider echo');
    delete process.env.ECHO_TEST_KEY;
    const noKey = await runCli(['direct', '--db', db, ...echo, 'q']);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('the environment variable ECHO_TEST_KEY is not set');
    process.env.ECHO_TEST_KEY = 'echo-secret';
  });
});
