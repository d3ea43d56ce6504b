// `dowser eval --db-url` (issue 36): questions asked on a PostgreSQL copy of each database, the
// reference run on the SQLite file, on a real throw-away cluster and a made-up Spider-format folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDb } from '../../test-support/build-db';
import { pgSkipReason, usePgCluster } from '../../test-support/pg-cluster';
import { runCli } from '../test-support/run-cli';

const SHOP = `
CREATE TABLE Customer (id INTEGER PRIMARY KEY, Name TEXT, City TEXT, score REAL);
INSERT INTO Customer VALUES (1, 'Ana', 'Oslo', 1.5), (2, 'Bo', 'Lima', 2.25), (3, 'Cy', 'Oslo', 3.0);
`;

const QUESTIONS = [
  {
    db_id: 'Shop',
    question: 'How many customers live in Oslo?',
    query: "SELECT count(*) FROM Customer WHERE City = 'Oslo'",
  },
  { db_id: 'Shop', question: 'What is the average id?', query: 'SELECT avg(id) FROM Customer' },
  { db_id: 'Shop', question: 'Names by score.', query: 'SELECT Name FROM Customer ORDER BY score DESC' },
];

describe.skipIf(pgSkipReason)('dowser eval on PostgreSQL copies', () => {
  const cluster = usePgCluster();
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dowser-server-eval-'));
    mkdirSync(join(dir, 'spider', 'database', 'Shop'), { recursive: true });
    writeFileSync(join(dir, 'spider', 'database', 'Shop', 'Shop.sqlite'), await buildDb(SHOP));
    writeFileSync(join(dir, 'spider', 'dev.json'), JSON.stringify(QUESTIONS));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scores the references asked on the copy against the SQLite file', async () => {
    const { url, port, user } = cluster.get();
    const copy = await runCli(['copy-to-postgres', '--spider', join(dir, 'spider', 'database'), '--to', url]);
    expect(copy.code, copy.stderr).toBe(0);
    process.env.PGPASSWORD = cluster.get().password;
    try {
      const out = join(dir, 'out');
      const r = await runCli([
        'eval',
        '--dataset',
        'spider',
        '--data',
        join(dir, 'spider'),
        '--provider',
        'gold',
        '--mode',
        'direct',
        '--db-url',
        `postgres://${user}@127.0.0.1:${port}/spider_{db}`,
        '--out',
        out,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { ex: number; reason?: string });
      // avg() is a numeric on the server, a double in SQLite: compared as SQLite gives it.
      expect(results.map((q) => q.ex)).toEqual([1, 1, 1]);
      expect(r.stdout + r.stderr).not.toContain(cluster.get().password);
    } finally {
      delete process.env.PGPASSWORD;
    }
  });
});
