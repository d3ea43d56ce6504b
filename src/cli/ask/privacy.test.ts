// Each privacy level over a whole `dowser ask` run, proven by what the mock model server received
// (e2e/fixtures/privacy-run.ts: a database of distinctive values, every tool showing data).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MATCHING_HIT,
  PRIVACY_DB_SQL,
  PRIVACY_QUESTION,
  PRIVACY_SCRIPT,
  SECRET_VALUES,
  sentText,
  sentToolResults,
} from '../../../e2e/fixtures/privacy-run';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import { WITHHELD_ROWS, WITHHELD_VALUE } from '../../core/privacy/disclose';
import { buildDb } from '../../test-support/build-db';
import { privacyFor } from './privacy';
import { runCli } from '../test-support/run-cli';

let dir: string;
let db: string;
let mock: MockLlm | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-privacy-'));
  db = join(dir, 'patients.sqlite');
  writeFileSync(db, await buildDb(PRIVACY_DB_SQL));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function ask(...extra: string[]) {
  mock = await startMockLlm({ script: PRIVACY_SCRIPT });
  const argv = ['ask', '--db', db, '--question', PRIVACY_QUESTION, '--provider', 'openai'];
  const ran = await runCli([...argv, '--base-url', mock.url, '--model', 'm', ...extra]);
  const sent = sentText(mock.requests);
  return { ...ran, sent, tools: sentToolResults(mock.requests).join('\n') };
}

describe('dowser ask --privacy', () => {
  it('full (the default for a local server) sends the values, rows and statistics', async () => {
    const r = await ask();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Privacy: full (the default for this provider');
    for (const value of SECRET_VALUES) expect(r.sent).toContain(value);
    expect(r.tools).toContain(MATCHING_HIT);
    expect(r.sent).not.toMatch(/[\uE000-\uE003]/);
  });

  it('matches only sends the value the question names, and no row preview', async () => {
    const r = await ask('--privacy', 'matches');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Privacy: matches only (--privacy)');
    for (const value of SECRET_VALUES) expect(r.sent).not.toContain(value);
    expect(r.tools).toContain(MATCHING_HIT);
    expect(r.tools).toContain(WITHHELD_ROWS);
    expect(r.tools).toContain('Columns: name, city, code, note');
    expect(r.tools).toContain('(4 rows)');
    // The answer still runs and is shown to the person in full.
    expect(r.stdout).toMatch(/patients\s*\n.*2/);
  });

  it('schema only sends no cell value at all', async () => {
    const r = await ask('--privacy', 'schema');
    expect(r.code).toBe(0);
    for (const value of SECRET_VALUES) expect(r.sent).not.toContain(value);
    // "Vexbridge" reaches the model only as the person and the model wrote it, never from the file.
    expect(r.tools).not.toContain(MATCHING_HIT);
    expect(r.tools).toContain(`${WITHHELD_VALUE} in patients.city`);
    expect(r.tools).toContain(WITHHELD_ROWS);
    const explanation = JSON.stringify(mock!.requests.at(-1)!.messages);
    expect(explanation).toContain(WITHHELD_ROWS.slice(0, 20));
  });

  it('refuses an unknown level', async () => {
    mock = await startMockLlm({ script: [] });
    const r = await ask('--privacy', 'some');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--privacy is one of full, matches, schema');
    expect(mock.requests).toHaveLength(0);
  });

  it('defaults to matches only for a cloud provider, full for local URLs and the scripted model', () => {
    expect(privacyFor({ provider: 'openai' })).toBe('matches');
    expect(privacyFor({ provider: 'anthropic' })).toBe('matches');
    expect(privacyFor({ provider: 'openai', baseUrl: 'https://openrouter.ai/api/v1' })).toBe('matches');
    expect(privacyFor({ provider: 'openai', baseUrl: 'http://localhost:11434/v1' })).toBe('full');
    expect(privacyFor({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' })).toBe('full');
    expect(privacyFor({ provider: 'openai', baseUrl: 'http://[::1]:8080/v1' })).toBe('full');
    expect(privacyFor({ provider: 'scripted' })).toBe('full');
    expect(privacyFor({ provider: 'openai', privacy: 'schema' })).toBe('schema');
  });
});
