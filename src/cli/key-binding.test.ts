// The CLI binds a provider's own key variable to its own server, as the page binds a key to its
// origin (issue 28, item 3): OPENAI_API_KEY never goes to another --base-url unless named with
// --api-key-env; Anthropic's key never leaves api.anthropic.com by default.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../e2e/mock-llm/server';
import { buildDb, SHOP_SQL } from '../test-support/build-db';
import { runCli } from './test-support/run-cli';

let dir: string;
let db: string;
let mock: MockLlm | undefined;
const saved = { openai: process.env.OPENAI_API_KEY, anthropic: process.env.ANTHROPIC_API_KEY };
const SQL = "SELECT name FROM customers WHERE city = 'Paris'";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-keys-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
  process.env.OPENAI_API_KEY = 'sk-test-bound-to-openai-0000';
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-bound-0000';
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
afterAll(() => {
  for (const [k, v] of [
    ['OPENAI_API_KEY', saved.openai],
    ['ANTHROPIC_API_KEY', saved.anthropic],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(dir, { recursive: true, force: true });
});

const answer = () =>
  startMockLlm({ script: [{ text: SQL }, { text: 'Explanation: The customers in Paris.\nVerdict: match' }] });

describe('keys bound to their server in the CLI', () => {
  it('sends no OPENAI_API_KEY to another --base-url; sends the variable named with --api-key-env', async () => {
    mock = await answer();
    const base = ['direct', '--db', db, '--provider', 'openai', '--model', 'm', '--base-url', mock.url];
    const keyless = await runCli([...base, 'Who lives in Paris?']);
    expect(keyless.code).toBe(0);
    expect(mock.requests.length).toBeGreaterThan(0);
    for (const r of mock.requests) expect(r.headers.authorization).toBeUndefined();

    await mock.close();
    mock = await answer();
    const named = await runCli([
      'direct',
      '--db',
      db,
      '--provider',
      'openai',
      '--model',
      'm',
      '--base-url',
      mock.url,
      '--api-key-env',
      'OPENAI_API_KEY',
      'Who lives in Paris?',
    ]);
    expect(named.code).toBe(0);
    expect(mock.requests[0].headers.authorization).toBe('[present]');
    expect(named.stdout + named.stderr).not.toContain('sk-test-bound');
  });

  it("refuses to send Anthropic's key to another server unless its variable is named", async () => {
    const r = await runCli([
      'direct',
      '--db',
      db,
      '--provider',
      'anthropic',
      '--model',
      'claude',
      '--base-url',
      'http://127.0.0.1:9/v1',
      'Who lives in Paris?',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name the variable holding its key with --api-key-env');
    expect(r.stderr).toContain('ANTHROPIC_API_KEY is sent only to https://api.anthropic.com');
    expect(r.stderr).not.toContain('sk-ant-test');
  });
});
