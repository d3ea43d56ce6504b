// Each privacy level over a whole `dowser ask` run, proven by what the mock model server received
// (e2e/fixtures/privacy-run.ts: a database of distinctive values, every tool showing data).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTO_PRIVACY_SCRIPT,
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
  const auto = extra.includes('auto');
  mock = await startMockLlm({ script: auto ? AUTO_PRIVACY_SCRIPT : PRIVACY_SCRIPT });
  const mode = auto ? [] : ['--mode', 'agent'];
  const argv = ['ask', '--db', db, '--question', PRIVACY_QUESTION, '--provider', 'openai', ...mode];
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

/** The database block of Auto's first request: what it shows of each column. */
const groundedBlock = (m: MockLlm) => {
  const user = (m.requests[0].messages as Array<{ role: string; content: string }>).find((x) => x.role === 'user')!;
  return user.content.slice(0, user.content.indexOf('Question:'));
};

describe('dowser ask --privacy, Auto (the grounded first request)', () => {
  it('full shows stored values of every kind: categories, examples, ranges', async () => {
    const r = await ask('--mode', 'auto');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('path: grounded, one request with every column and its stored values');
    expect(mock!.requests).toHaveLength(2);
    // Each request says why it was made: the mock's reply carries no explanation, so a check followed.
    expect(r.stdout).toContain('request 1: the answer\n');
    expect(r.stdout).toMatch(/request 2: a check: .*the reply had no explanation/);
    const block = groundedBlock(mock!);
    for (const value of ['Brindlemoor', 'Caskwater', 'Vexbridge', '102938', '918273']) expect(block).toContain(value);
    expect(r.sent).not.toMatch(/[\uE000-\uE003]/);
  });

  it('matches only shows only the values the question names', async () => {
    const r = await ask('--mode', 'auto', '--privacy', 'matches');
    expect(r.code).toBe(0);
    const block = groundedBlock(mock!);
    expect(block).toContain('city text: has "Vexbridge"');
    for (const value of SECRET_VALUES) expect(r.sent).not.toContain(value);
    // Nothing withheld is sent as a placeholder either: it is left out.
    expect(block).not.toContain(WITHHELD_VALUE);
  });

  it('schema only shows no value at all, only types and what the values are like', async () => {
    const r = await ask('--mode', 'auto', '--privacy', 'schema');
    expect(r.code).toBe(0);
    const block = groundedBlock(mock!);
    expect(block).toContain('city text');
    expect(block).not.toContain('Vexbridge');
    for (const value of SECRET_VALUES) expect(r.sent).not.toContain(value);
    expect(block).not.toContain(WITHHELD_VALUE);
    // The check sees counts, never rows.
    expect(JSON.stringify(mock!.requests[1].messages)).toContain(WITHHELD_ROWS.slice(0, 20));
  });
});
