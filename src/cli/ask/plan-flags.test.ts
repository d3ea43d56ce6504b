// `dowser ask --plan / --check-step / --non-interactive / --pause-after-plan`, headless.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { runAsk } from '../commands/ask';
import { run } from '../main';
import type { Terminal } from './person';
import { captureIo } from '../test-support/run-cli';

const QUESTION = 'Total of paid orders from Paris?';
const PLAN = {
  sub_questions: [
    { text: 'Which customers are in Paris?', tables: [{ table: 'customers', columns: ['id', 'city'] }] },
    { text: 'Which orders are paid?', tables: [{ table: 'orders', columns: ['id', 'total', 'status'] }] },
  ],
};
const SQL =
  "SELECT sum(o.total) AS paid FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city = 'Paris' AND o.status = 'paid'";
const EXPLANATION = { text: 'Explanation: The total of paid orders by customers who live in Paris.\nVerdict: match' };
const ASK = { question: 'Which city column?', options: ['customers.city', 'stores.city'] };

let dir: string;
let db: string;
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

async function dowser(...argv: string[]) {
  const { io, out } = captureIo();
  const code = await run(argv, io);
  return { code, ...out };
}

/** A person at a terminal who types the given lines. */
function typing(...lines: string[]): Terminal & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    isTTY: true,
    prompts,
    ask: async (p) => {
      prompts.push(p);
      return lines.shift() ?? '';
    },
  };
}

const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string } & Record<string, unknown>);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dowser-plan-'));
  db = join(dir, 'shop.sqlite');
  writeFileSync(db, await buildDb(SHOP_SQL));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dowser ask --plan', () => {
  it('runs with the plan confirmed: no submit_plan, final reached', async () => {
    const script = file('confirmed-turns.json', [
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: SQL } }] },
      { toolCalls: [{ name: 'done', arguments: { sql: SQL } }] },
      EXPLANATION,
    ]);
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      '--provider',
      'scripted',
      '--script',
      script,
      '--plan',
      file('plan.json', PLAN),
      '--json',
    );
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events[0]).toMatchObject({ type: 'plan', confirmed: true });
    expect(events.filter((e) => e.type === 'action').map((e) => e.tool)).toEqual(['execute_sql', 'done']);
    expect(events[events.length - 1]).toMatchObject({ type: 'final', rows: [[30.5]] });
  });

  it('exits 2 listing every problem of the plan file', async () => {
    const bad = file('bad-plan.json', {
      sub_questions: [{ text: 'a', tables: [{ table: 'customer' }, { table: 'orders', columns: ['totl'] }] }],
    });
    const r = await dowser('ask', '--db', db, '--question', QUESTION, '--provider', 'scripted', '--plan', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No table named "customer". Close names: customers.');
    expect(r.stderr).toContain('Table "orders" has no column "totl". Close names: total.');
    // One problem a line, not a literal "\n".
    expect(r.stderr).not.toContain('\\n');
    const json = await dowser(
      'ask',
      '--db',
      db,
      '--question',
      QUESTION,
      '--provider',
      'scripted',
      '--plan',
      bad,
      '--json',
    );
    expect(json.code).toBe(2);
    expect(jsonLines(json.stdout)).toEqual([
      expect.objectContaining({
        type: 'error',
        code: 'bad_plan',
        message: expect.stringContaining('No table named "customer"'),
      }),
    ]);
  });

  it('--max-rows sets how many rows the final event carries, and says how many there are', async () => {
    const all = 'SELECT id FROM orders';
    const script = file('rows-turns.json', [
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: all } }] },
      { toolCalls: [{ name: 'done', arguments: { sql: all } }] },
      EXPLANATION,
    ]);
    const args = ['ask', '--db', db, '--question', 'All order ids?', '--provider', 'scripted', '--script', script];
    const r = await dowser(...args, '--plan', file('plan.json', PLAN), '--json', '--max-rows', '2');
    const final = jsonLines(r.stdout).pop()!;
    expect(final).toMatchObject({ type: 'final', truncated: true });
    expect(final.rows).toHaveLength(2);
    expect(final.totalRows).toBeGreaterThan(2);
  });

  it.each([
    [{ steps: [] }, 'not in the submit_plan shape'],
    ['not json', 'is not valid JSON'],
  ])('exits 2 on a plan file of the wrong shape (%j)', async (content, message) => {
    const path = join(dir, 'shape.json');
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    const r = await dowser('ask', '--db', db, '--question', QUESTION, '--provider', 'scripted', '--plan', path);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('dowser ask --check-step', () => {
  const stepSql = 'SELECT id, total, status FROM orders';
  const turns = [
    { toolCalls: [{ name: 'execute_sql', arguments: { sql: stepSql } }] },
    { toolCalls: [{ name: 'done', arguments: { sql: stepSql } }] },
  ];

  it('prints the preview rows of one sub-question', async () => {
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--provider',
      'scripted',
      '--script',
      file('step.json', turns),
      '--plan',
      file('plan.json', PLAN),
      '--check-step',
      '2',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/step 2 SQL:\n {4}SELECT id, total, status FROM orders/);
    expect(r.stdout).toMatch(/10\.5 +\| paid/);
    expect(r.stdout).not.toContain('verdict');
  });

  it('writes events with --json, and refuses a step past the plan or without --plan', async () => {
    const r = await dowser(
      'ask',
      '--db',
      db,
      '--provider',
      'scripted',
      '--script',
      file('step.json', turns),
      '--plan',
      file('plan.json', PLAN),
      '--check-step',
      '2',
      '--json',
    );
    expect(jsonLines(r.stdout).pop()).toMatchObject({
      type: 'step_preview',
      subQuestion: 2,
      columns: ['id', 'total', 'status'],
    });
    const past = await dowser(
      'ask',
      '--db',
      db,
      '--provider',
      'scripted',
      '--plan',
      file('plan.json', PLAN),
      '--check-step',
      '3',
    );
    expect(past).toMatchObject({ code: 2, stderr: expect.stringContaining('the plan has 2 sub-questions') });
    const alone = await dowser('ask', '--db', db, '--provider', 'scripted', '--check-step', '1');
    expect(alone).toMatchObject({ code: 2, stderr: expect.stringContaining('--check-step N needs --plan') });
  });
});

describe('dowser ask, clarification and pause', () => {
  const askTurns = () =>
    file('ask-turns.json', [
      { toolCalls: [{ name: 'submit_plan', arguments: PLAN }] },
      // Two columns scoring nearly the same: the ambiguity signal that allows asking.
      { toolCalls: [{ name: 'search_column', arguments: { query: 'status' } }] },
      { toolCalls: [{ name: 'ask_user', arguments: ASK }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql: SQL } }] },
      { toolCalls: [{ name: 'done', arguments: { sql: SQL } }] },
      EXPLANATION,
    ]);
  const args = () => ['--db', db, '--question', QUESTION, '--provider', 'scripted', '--script', askTurns()];

  it('--non-interactive takes the first option by default and says so, to the person and the model', async () => {
    const r = await dowser('ask', ...args(), '--non-interactive');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('→ nobody to answer here: the first option, "customers.city", was taken by default');
    expect(r.stdout).toContain('No person is here to answer; the first option was taken by default: "customers.city"');
    expect(r.stdout).not.toContain('The person answered');
  });

  it('without a terminal behaves like --non-interactive and says so', async () => {
    const { io, out } = captureIo();
    const code = await runAsk([...args(), '--json'], io, {
      isTTY: false,
      ask: () => Promise.reject(new Error('no one there')),
    });
    expect(code).toBe(0);
    expect(jsonLines(out.stdout).find((e) => e.type === 'ask')).toMatchObject({
      question: ASK.question,
      options: ASK.options,
      defaultAnswer: 'customers.city',
    });
  });

  it('on a terminal reads the choice, and the plan pause continues on Enter', async () => {
    const { io, out } = captureIo();
    const person = typing('', '2');
    const code = await runAsk([...args(), '--pause-after-plan'], io, person);
    expect(code).toBe(0);
    expect(person.prompts).toEqual(['Continue? [Y/n] ', 'Answer (1-2, or type your own; Enter = 1): ']);
    expect(out.stderr).toContain('The model asks: Which city column?\n  1. customers.city\n  2. stores.city');
    expect(out.stdout).toContain('plan (confirmed):');
    expect(out.stdout).toContain('The person answered: "stores.city"');
  });

  it('stops after the plan when the person says no', async () => {
    const { io, out } = captureIo();
    const code = await runAsk([...args(), '--pause-after-plan'], io, typing('n'));
    expect(code).toBe(1);
    expect(out.stdout).toContain('plan: waiting for Continue');
    expect(out.stderr).toContain('error [aborted]: Stopped after the plan.');
  });
});
