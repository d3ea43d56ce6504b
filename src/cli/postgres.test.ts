// `dowser sql` and `dowser schema` with --db postgres://… against a real server (issue 36).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ATTACKS } from '../core/dialect/postgres/attacks';
import { pgSkipReason, usePgCluster } from '../test-support/pg-cluster';
import { makeShop, READER, tableChecksums } from '../test-support/pg-fixtures';
import { runCli } from './test-support/run-cli';

describe.skipIf(pgSkipReason)('the CLI on a PostgreSQL database', () => {
  const cluster = usePgCluster();
  let urls: { admin: string; reader: string };
  const saved = { ...process.env };

  beforeAll(async () => {
    urls = await makeShop(cluster.get());
    process.env.SHOP_PW = READER.password;
    delete process.env.PGPASSWORD;
  }, 60_000);
  afterAll(() => {
    process.env = saved;
  });

  it('runs a statement as a read-only role, the password from --password-env and never printed', async () => {
    const r = await runCli([
      'sql',
      '--db',
      urls.reader,
      '--password-env',
      'SHOP_PW',
      '--json',
      'SELECT id, name FROM customers ORDER BY id LIMIT 2',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      columns: ['id', 'name'],
      rows: [
        [1, 'Customer 1'],
        [2, 'Customer 2'],
      ],
    });
    expect(r.stdout + r.stderr).not.toContain(READER.password);
  });

  it('says what is missing when the server asks for a password', async () => {
    const r = await runCli(['sql', '--db', urls.reader, 'SELECT 1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('asks for a password for dowser_reader');
    expect(r.stderr).toContain('--password-env');
  });

  it('warns of a password in the URL and of a superuser, and never prints the password', async () => {
    const r = await runCli(['sql', '--db', urls.admin, 'SELECT count(*) FROM "Order ""Items"""']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('300');
    expect(r.stderr).toContain('password in this URL');
    expect(r.stderr).toContain('is a superuser');
    expect(r.stderr).toContain('docs/how-to/postgres-read-only-role.md');
    expect(r.stdout + r.stderr).not.toContain(cluster.get().password);
  });

  it('refuses every statement of the adversarial corpus through dowser sql as a superuser, changing nothing', async () => {
    const before = await tableChecksums(urls.admin);
    for (const sql of POSTGRES_ATTACKS) {
      const r = await runCli(['sql', '--db', urls.admin, '--', sql]);
      expect(r.code, sql).toBe(1);
      expect(r.stderr, sql).toMatch(/error \[(read_only|multiple_statements|sql_error)\]: \S/);
      expect(r.stdout, sql).toBe('');
    }
    expect(await tableChecksums(urls.admin)).toEqual(before);
  });

  it('prints the schema with its comments, keys and statistics', async () => {
    const r = await runCli(['schema', '--db', urls.reader, '--password-env', 'SHOP_PW', '--schema', 'public,sales']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^dowser_reader@127\.0\.0\.1:\d+\/shop: PostgreSQL \d+/);
    expect(r.stdout).toContain('schemas public, sales');
    expect(r.stdout).toContain('comment: people who bought something');
    expect(r.stdout).toContain('-- where they live');
    expect(r.stdout).toContain('table regions: 2 rows');
    expect(r.stdout).toMatch(/City Name\s+0 nulls|City Name\s+10 nulls/);
  });

  it('answers a question with the agent and its tools on the server', async () => {
    const sql = `SELECT count(*) AS n FROM customers WHERE "City Name" = 'Oslo'`;
    const plan = {
      sub_questions: [{ text: 'Customers in Oslo', tables: [{ table: 'customers', columns: ['City Name'] }] }],
    };
    const turns = [
      { text: 'Plan.', toolCalls: [{ name: 'submit_plan', arguments: plan }] },
      { toolCalls: [{ name: 'search_value', arguments: { query: 'oslo' } }] },
      { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
      { toolCalls: [{ name: 'done', arguments: { sql } }] },
      { text: 'Verdict: match\nExplanation: Ten customers live in Oslo.' },
    ];
    const script = join(mkdtempSync(join(tmpdir(), 'dowser-pg-ask-')), 'turns.json');
    writeFileSync(script, JSON.stringify(turns));
    const args = [
      'ask',
      '--db',
      urls.reader,
      '--password-env',
      'SHOP_PW',
      '--provider',
      'scripted',
      '--script',
      script,
    ];
    const r = await runCli([...args, '--mode', 'agent', '--json', '--question', 'How many customers live in Oslo?']);
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const observations = events.filter((e) => e.type === 'observation').map((e) => String(e.text));
    expect(observations.some((o) => o.includes('"Oslo" in customers."City Name"'))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'final', columns: ['n'], rows: [[10]] });
  });

  it('runs Direct and Optimize on the server, with its own plans', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dowser-pg-tasks-'));
    const direct = join(dir, 'direct.json');
    writeFileSync(
      direct,
      JSON.stringify([
        { text: "```sql\nSELECT count(*) AS n FROM customers WHERE joined >= DATE '2024-02-01'\n```" },
        { text: 'Verdict: match\nExplanation: Customers who joined in February or later.' },
      ]),
    );
    const pw = ['--password-env', 'SHOP_PW', '--provider', 'scripted'];
    const d = await runCli([
      'direct',
      '--db',
      urls.reader,
      ...pw,
      '--script',
      direct,
      'How many joined since February?',
    ]);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toMatch(/\b10\b/);
    const optimize = join(dir, 'optimize.json');
    writeFileSync(optimize, JSON.stringify([{ text: 'SELECT count(*) FROM customers WHERE id > 5' }]));
    const o = await runCli([
      'optimize',
      '--db',
      urls.reader,
      ...pw,
      '--script',
      optimize,
      'SELECT count(*) FROM (SELECT * FROM customers WHERE id > 5) AS s',
    ]);
    expect(o.code, o.stderr).toBe(0);
    expect(o.stdout).toContain('original plan');
    expect(o.stdout).toMatch(/Scan on customers/);
    // Both timed by the server (EXPLAIN ANALYZE's execution time), not by the client's clock.
    expect(o.stdout).toMatch(/runs each, timed by the server\)/);
  });
});
