// `dowser serve` as the program runs it, on a real PostgreSQL cluster as a superuser: the link it
// prints opens once, the adversarial corpus sent the way the page sends SQL changes nothing, the
// schema is PostgreSQL's, and Ctrl-C ends it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_ATTACKS } from '../../core/dialect/postgres/attacks';
import { HttpEngine, startSession } from '../../core/remote/http-engine';
import { parseServeLink } from '../../core/remote/link';
import { pgSkipReason, usePgCluster } from '../../test-support/pg-cluster';
import { makeShop, tableChecksums } from '../../test-support/pg-fixtures';

const PAGE = 'http://127.0.0.1:4317';
const pageFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: PAGE } });

describe.skipIf(pgSkipReason)('dowser serve on a PostgreSQL database', () => {
  const cluster = usePgCluster();
  let admin: string;
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';

  const linkPrinted = async (count: number) => {
    for (let i = 0; i < 600 && (stdout.match(/#serve=/g) ?? []).length < count; i++)
      await new Promise((r) => setTimeout(r, 50));
    const links = [...stdout.matchAll(/http:\/\/\S+#serve=\S+/g)].map((m) => m[0]);
    const parsed = parseServeLink(new URL(links[count - 1]).hash);
    if (!parsed || !('link' in parsed)) throw new Error(`no link in: ${stdout} ${stderr}`);
    return parsed.link;
  };

  beforeAll(async () => {
    ({ admin } = await makeShop(cluster.get()));
    child = spawn(
      process.execPath,
      [resolve('bin/dowser.mjs'), 'serve', '--db', admin, '--port', '0', '--page', PAGE + '/'],
      {
        env: { ...process.env, DOWSER_CACHE: 'off' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  }, 60_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('prints a link for the page that opens once, and a new one on Enter, never the password', async () => {
    const link = await linkPrinted(1);
    expect(stdout).toMatch(
      /Serving dowser_admin@127\.0\.0\.1:\d+\/shop read-only on http:\/\/127\.0\.0\.1:\d+ for the page at http:\/\/127\.0\.0\.1:4317/,
    );
    expect(stderr).toMatch(/superuser/);
    const password = decodeURIComponent(new URL(admin).password);
    expect(stdout + stderr).not.toContain(password);
    const { report } = await startSession(link, pageFetch);
    expect(report.server?.dialect).toBe('postgres');
    await expect(startSession(link, pageFetch)).rejects.toThrow(/used already/);
    child.stdin!.write('\n');
    const second = await linkPrinted(2);
    expect(second.token).not.toBe(link.token);
    expect((await startSession(second, pageFetch)).report.name).toMatch(/shop$/);
  }, 60_000);

  it('refuses every statement of the adversarial corpus through the page path as a superuser, changing nothing', async () => {
    child.stdin!.write('\n');
    const { session } = await startSession(await linkPrinted(3), pageFetch);
    const engine = new HttpEngine(session, 'page', pageFetch);
    const before = await tableChecksums(admin);
    for (const sql of POSTGRES_ATTACKS) {
      const refused = await engine.query('page', sql).catch((e: unknown) => e);
      expect(refused, sql).toMatchObject({
        code: expect.stringMatching(/^(read_only|multiple_statements|sql_error)$/),
      });
      expect((refused as Error).message.length, sql).toBeGreaterThan(10);
    }
    expect(await tableChecksums(admin)).toEqual(before);
    const schema = await engine.introspect('page');
    expect(schema.dialect).toBe('postgres');
    expect(schema.tables.map((t) => t.name)).toContain('customers');
    const rows = await engine.query('page', 'SELECT count(*) AS n FROM customers');
    expect(rows.rows).toEqual([[40]]);
  }, 120_000);

  it('ends on Ctrl-C', async () => {
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code === 0 || code === 130).toBe(true);
  }, 30_000);
});
