// The CLI runs its engine in a worker thread (issue 11, item 4): a runaway query ends at the time
// limit instead of hanging, Ctrl-C always ends the process, `dowser schema` finishes within its
// budget on hostile schemas, and the main thread never holds a copy of the file.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb, SHOP_SQL } from '../test-support/build-db';
import { hugeCellDb, nestedViewsDb } from '../test-support/hostile-dbs';
import { runCli } from './test-support/run-cli';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const PLAN = { sub_questions: [{ text: 'How many orders?', tables: [{ table: 'orders', columns: ['id'] }] }] };
const COUNT = 'SELECT count(*) AS n FROM orders';

let dir: string;
let shop: string;

// The database is read by the engine's worker, never through here.
const dowser = (...argv: string[]) =>
  runCli(argv, (p) => {
    if (p.endsWith('.sqlite')) throw new Error(`the main thread read the database ${p}`);
    return readFileSync(p);
  });

function script(name: string, turns: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(turns));
  return path;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-hardening-'));
  shop = join(dir, 'shop.sqlite');
  writeFileSync(shop, await buildDb(SHOP_SQL));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('time limits in the CLI', () => {
  it('dowser sql --timeout ends an endless query with a readable error', async () => {
    const t0 = Date.now();
    const r = await dowser('sql', '--db', shop, '--timeout', '1', ENDLESS);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error \[timeout\]: The query ran longer than the time limit \(1 s\).*--timeout/);
    expect(Date.now() - t0).toBeLessThan(15_000);
    // The worker was replaced and the next command works.
    expect((await dowser('sql', '--db', shop, 'SELECT count(*) FROM orders')).stdout).toContain('4');
  });

  it('refuses a bad --timeout as a usage error', async () => {
    const r = await dowser('sql', '--db', shop, '--timeout', 'soon', 'SELECT 1');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--timeout needs a number of seconds');
  });

  it('dowser ask: a model running an endless CTE gets a time-out observation and the run goes on', async () => {
    const turns = script('endless.json', [
      { toolCalls: [{ name: 'submit_plan', arguments: PLAN }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: ENDLESS } }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: COUNT } }] },
      { toolCalls: [{ name: 'done', arguments: { sql: COUNT } }] },
      { text: 'Explanation: The number of orders.\nVerdict: match' },
    ]);
    const t0 = Date.now();
    const r = await dowser(
      'ask',
      '--db',
      shop,
      '--question',
      'How many orders?',
      '--provider',
      'scripted',
      '--script',
      turns,
      '--timeout',
      '1',
      '--json',
    );
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; text?: string; rows?: unknown });
    const observations = events.filter((e) => e.type === 'observation').map((e) => e.text ?? '');
    expect(observations[1]).toMatch(/time limit \(1 s\)/);
    expect(events.at(-1)).toMatchObject({ type: 'final', rows: [[4]] });
    expect(r.code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});

describe('dowser schema on hostile schemas', () => {
  it('1,000 nested views: finishes within its budget and lists what it skipped', async () => {
    const path = join(dir, 'nested-views.sqlite');
    writeFileSync(path, await nestedViewsDb(1_000));
    const t0 = Date.now();
    const r = await dowser('schema', '--db', path, '--budget', '3', '--no-stats');
    const elapsed = Date.now() - t0;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\d+ objects not read: reading stopped after 1\.5 s \(raise --budget\)/);
    expect(r.stdout).toMatch(/view v\d+: not read \(the time budget ran out\)/);
    expect(r.stdout).toContain('view v0: 2 rows');
    // Opening and checking take their share; reading the schema alone took 34 s before.
    expect(elapsed).toBeLessThan(15_000);
  });
});

describe('the file is held by the worker only', () => {
  it('opening a 64 MB file adds no copy of it to the main thread', async () => {
    const path = join(dir, 'big.sqlite');
    writeFileSync(path, await hugeCellDb(64 * 1024 * 1024));
    const before = process.memoryUsage().arrayBuffers;
    const r = await dowser('sql', '--db', path, 'SELECT id, length(body) FROM t');
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(r.stdout).toContain('67108864');
    expect(grown).toBeLessThan(16 * 1024 * 1024);
  });

  it('a huge cell is cut in the output, with its full length on stderr', async () => {
    const path = join(dir, 'cell.sqlite');
    writeFileSync(path, await hugeCellDb(1_000_000));
    const r = await dowser('sql', '--db', path, '--json', 'SELECT body FROM t');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).rows[0][0]).toHaveLength(1_000_000);
    const text = await dowser('sql', '--db', path, "SELECT body, printf('%.*c', 20000000, 'x') AS big FROM t");
    expect(text.stderr).toContain('note: row 1, column body is cut: it holds 1000000 characters');
    expect(text.stderr).toContain('note: row 1, column big is cut: it holds 20000000 characters');
  });
});

/** Starts the real program; resolves with its exit when it ends. */
function startCli(args: string[]) {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/dowser.mjs'), ...args], { cwd: repoRoot });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, out: () => stdout, err: () => stderr };
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Ctrl-C (a real process, SIGINT)', () => {
  it('dowser ask stops during an endless query: exit 130, the transcript written', async () => {
    const turns = script('hang.json', [
      { toolCalls: [{ name: 'submit_plan', arguments: PLAN }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: ENDLESS } }] },
    ]);
    const transcript = join(dir, 'interrupted.json');
    const cli = startCli([
      'ask',
      '--db',
      shop,
      '--question',
      'How many orders?',
      '--provider',
      'scripted',
      '--script',
      turns,
      '--timeout',
      '120',
      '--transcript',
      transcript,
      '--json',
    ]);
    await waitFor(() => cli.out().includes('"tool":"execute_sql"'), 30_000);
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    cli.child.kill('SIGINT');
    const exit = await cli.exited;
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(exit).toEqual({ code: 130, signal: null });
    expect(cli.out()).toContain('"type":"error","code":"aborted"');
    expect(JSON.parse(readFileSync(transcript, 'utf8'))).toMatchObject({ exitCode: 130 });
  });

  it('dowser sql stops an endless query: exit 130 with a short message', async () => {
    const cli = startCli(['sql', '--db', shop, '--timeout', '120', ENDLESS]);
    // No output to wait for: give the program time to start its worker and run the query.
    await new Promise((r) => setTimeout(r, 5_000));
    const t0 = Date.now();
    cli.child.kill('SIGINT');
    const exit = await cli.exited;
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(exit).toEqual({ code: 130, signal: null });
    expect(cli.err()).toBe('stopped (Ctrl-C)\n');
  });
});
