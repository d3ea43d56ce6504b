import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../e2e/mock-llm/server';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { openaiFlags, runCli } from '../test-support/run-cli';

const KEY_VAR = 'DOWSER_TASKS_TEST_KEY';
const KEY = 'sk-test-tasks-never-printed-81c2';

let dir: string;
let db: string;
let mock: MockLlm | undefined;

const dowser = (...argv: string[]) => runCli(argv);

function script(name: string, turns: unknown[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(turns));
  return file;
}

const scripted = (name: string, turns: unknown[]) => [
  '--db',
  db,
  '--provider',
  'scripted',
  '--script',
  script(name, turns),
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-tasks-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
  process.env[KEY_VAR] = KEY;
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});
afterAll(() => {
  delete process.env[KEY_VAR];
  rmSync(dir, { recursive: true, force: true });
});

describe('dowser direct', () => {
  it('answers in one call, runs and explains the SQL (JSON events)', async () => {
    const sql = "SELECT name FROM customers WHERE city = 'Paris'";
    const r = await dowser(
      'direct',
      ...scripted('direct', [{ text: sql }, { text: 'Explanation: The customers living in Paris.\nVerdict: match' }]),
      '--json',
      'Who lives in Paris?',
    );
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const final = events.find((e) => e.type === 'final')!;
    expect(final.sql).toBe(sql);
    expect(final.rows).toEqual([['Ada']]);
    expect(final.explanation).toBe('The customers living in Paris.');
  });

  it('needs the question as one argument', async () => {
    const r = await dowser('direct', '--db', db, '--provider', 'scripted');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give the question as one argument');
  });
});

describe('dowser fix', () => {
  it('sends the question, the SQL, the SQLite error and its close names to the server, and prints the diff', async () => {
    mock = await startMockLlm({ script: [{ text: '```sql\nSELECT name, city FROM customers\n```' }] });
    const r = await dowser(
      'fix',
      '--db',
      db,
      ...openaiFlags(mock.url, 'mock'),
      '--api-key-env',
      KEY_VAR,
      '--question',
      'Names and cities of customers',
      'SELECT nme, city FROM customers',
    );
    expect(r.code).toBe(0);
    const sent = JSON.stringify(mock.requests[0].messages);
    expect(sent).toContain('no such column: nme');
    expect(sent).toMatch(/Close names[^"]*customers\.name/);
    expect(sent).toContain('### Question: \\"Names and cities of customers\\"');
    expect(r.stdout).toContain('- SELECT nme, city FROM customers');
    expect(r.stdout).toContain('+ SELECT name, city FROM customers');
    expect(r.stdout).toContain('Ada');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('says what it tried after two rounds (JSON), exit 1', async () => {
    const r = await dowser(
      'fix',
      ...scripted('fix-fail', [{ text: 'SELECT nam FROM customers' }, { text: 'SELECT nm FROM customers' }]),
      '--json',
      '--note',
      'should list names',
      'SELECT nme FROM customers',
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { status: string; attempts: unknown[]; summary: string };
    expect(report.status).toBe('not_fixed');
    expect(report.attempts).toHaveLength(2);
    expect(report.summary).toContain('No fix after 2 rounds. Tried:');
  });
});

describe('dowser optimize', () => {
  const ORIGINAL = 'SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders)';

  it('rejects a rewrite whose results differ, and shows both plans', async () => {
    const r = await dowser(
      'optimize',
      ...scripted('opt', [{ text: 'SELECT name FROM customers WHERE city IS NOT NULL' }]),
      ORIGINAL,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('rejected: Different results: it returns 2 rows instead of 3');
    expect(r.stdout).toMatch(/original plan +\| rewrite plan/);
  });

  it('judges an equivalent rewrite by its timing (JSON)', async () => {
    const rewrite = 'SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)';
    const r = await dowser('optimize', ...scripted('opt2', [{ text: rewrite }]), '--json', '--runs', '3', ORIGINAL);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { sameResults: boolean; original: { timesMs: number[] }; cVes: number };
    expect(report.sameResults).toBe(true);
    expect(report.original.timesMs).toHaveLength(3);
    expect(report.cVes).toBeGreaterThan(0);
  });
});

describe('dowser explain', () => {
  it('explains SQL in plain words with the tables and filters it reads', async () => {
    const r = await dowser(
      'explain',
      ...scripted('explain', [{ text: 'Explanation: The open orders and their totals.\nVerdict: unsure' }]),
      "SELECT id, total FROM orders WHERE status = 'open' ORDER BY total",
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('The open orders and their totals.');
    expect(r.stdout).toContain('tables: orders');
    expect(r.stdout).toContain("filters: status = 'open'");
    expect(r.stdout).toContain('ordered by: total');
  });
});

describe('task commands and the privacy level', () => {
  // Explain shows the model the first rows; Fix the SQL's observation. Both go through the gate.
  const explainTo = (url: string, ...flags: string[]) =>
    dowser(
      'explain',
      '--db',
      db,
      '--provider',
      'openai',
      '--model',
      'mock',
      '--base-url',
      url,
      '--api-key-env',
      KEY_VAR,
      ...flags,
      'SELECT name, city FROM customers',
    );

  it('full (the default for a local server) sends the rows; schema sends no cell value', async () => {
    mock = await startMockLlm({ script: [{ text: 'Explanation: Names and cities.\nVerdict: unsure' }] });
    const full = await explainTo(mock.url);
    expect(full.code).toBe(0);
    expect(full.stderr).toContain('Privacy: full');
    const sentFull = JSON.stringify(mock.requests[0].messages);
    expect(sentFull).toContain('Paris');
    await mock.close();

    mock = await startMockLlm({ script: [{ text: 'Explanation: Names and cities.\nVerdict: unsure' }] });
    const schema = await explainTo(mock.url, '--privacy', 'schema');
    expect(schema.code).toBe(0);
    expect(schema.stderr).toContain('Privacy: schema only');
    const sent = JSON.stringify(mock.requests[0].messages);
    for (const value of ['Ada', 'Paris', 'Oslo']) expect(sent).not.toContain(value);
    expect(schema.stdout).toContain('Names and cities.');
  });

  it('fix under matches only: values that are not words of the question stay home', async () => {
    mock = await startMockLlm({ script: [{ text: '```sql\nSELECT name FROM customers\n```' }] });
    const r = await dowser(
      'fix',
      '--db',
      db,
      ...openaiFlags(mock.url, 'mock'),
      '--api-key-env',
      KEY_VAR,
      '--privacy',
      'matches',
      '--question',
      'Customers in Oslo',
      '--note',
      'should list only the ones in Oslo',
      'SELECT name, city FROM customers',
    );
    expect(r.code).toBeLessThanOrEqual(1);
    expect(mock.requests.length).toBeGreaterThan(0);
    const sent = JSON.stringify(mock.requests.map((q) => q.messages));
    for (const value of ['Ada', 'Paris', 'Cy']) expect(sent).not.toContain(value);
  });
});
