/**
 * Numbers behind issue 11's hardening (decisions 030-033): what hostile content costs in the
 * engine, in process (Node, sql.js, this machine), and what the bounds leave of it.
 *
 *   npx tsx scripts/bench-hostile.ts
 *
 * - huge values: time to read and cut printf('%.*c', 1e8, 'x'), a 200 MB group_concat and
 *   zeroblob(1e9); the bytes that cross; SQLite's wasm heap after each, and after a restart;
 * - schemas: introspection of 10,000 tables and of 1,000 nested views, whole and within the
 *   page's first slice (400 objects or 1 s);
 * - the CLI's engine worker: time from spawn to the first answer.
 */
import { createNodeEngine } from '../src/adapters/sqljs/node';
import { RestartableEngine } from '../src/worker/db-client';
import { spawnNodeDbWorker } from '../src/worker/node/spawn';
import { buildDb } from '../src/test-support/build-db';
import { manyTablesDb, nestedViewsDb } from '../src/test-support/hostile-dbs';
import { valueBytes } from '../src/core/db/result-budget';

const ms = (t0: number) => Math.round(performance.now() - t0);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

async function values() {
  console.log('## Huge values (the engine in a worker thread, as in the page and the CLI)');
  const restarts: string[] = [];
  const engine = new RestartableEngine(spawnNodeDbWorker, { onRestart: (r) => restarts.push(r) });
  await engine.open({ id: 'v', name: 'v', bytes: await buildDb('CREATE TABLE t (x)') });
  console.log(`wasm heap of a fresh worker: ${mb(await engine.heapBytes())}`);
  const cases: Array<[string, string]> = [
    ["printf('%.*c', 1e8, 'x')", "SELECT printf('%.*c', 100000000, 'x')"],
    [
      'group_concat of 200 MB',
      "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) SELECT group_concat(printf('%.*c', 100000, 'y'), '') FROM c",
    ],
    ['zeroblob(1e9)', 'SELECT zeroblob(1000000000)'],
  ];
  for (const [label, sql] of cases) {
    const t0 = performance.now();
    const r = await engine.query('v', sql, {}, 60_000);
    const crossing = r.rows.flat().reduce<number>((n, v) => n + valueBytes(v), 0);
    const heap = await engine.heapBytes();
    console.log(
      `${label}: ${ms(t0)} ms, full length ${r.cut?.[0]?.length}, crossed ${mb(crossing)}, wasm heap after ${mb(heap)}`,
    );
    // Past the limit (256 MiB) the idle worker is replaced: wait for it, then measure again.
    for (let i = 0; i < 100 && heap > engine.heapLimitBytes && !restarts.length; i++)
      await new Promise((r) => setTimeout(r, 100));
    if (restarts.length) {
      console.log(`  restarted (${restarts.join(', ')}): wasm heap now ${mb(await engine.heapBytes())}`);
      restarts.length = 0;
    }
  }
  engine.dispose();
}

async function schemas() {
  console.log('\n## Hostile schemas (engine in process)');
  for (const [label, bytes] of [
    ['10,000 tables', await manyTablesDb(10_000)],
    ['1,000 nested views', await nestedViewsDb(1_000)],
  ] as const) {
    const engine = await createNodeEngine();
    await engine.open({ id: 's', name: 's', bytes });
    let t0 = performance.now();
    const slice = await engine.introspect('s', { maxObjects: 400, budgetMs: 1_000 });
    const first = ms(t0);
    t0 = performance.now();
    const whole = await engine.introspect('s', { budgetMs: 10 * 60_000 });
    console.log(
      `${label} (${mb(bytes.length)}): first slice ${first} ms (${slice.tables.length - (slice.incomplete?.skipped ?? 0)} read, ${JSON.stringify(slice).length} chars), whole ${ms(t0)} ms (${JSON.stringify(whole).length} chars)`,
    );
  }
}

async function worker() {
  console.log('\n## The CLI engine worker');
  const bytes = await buildDb('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const engine = new RestartableEngine(spawnNodeDbWorker);
    await engine.open({ id: 'w', name: 'w', bytes });
    await engine.query('w', 'SELECT x FROM t');
    console.log(`spawn, open and first query: ${ms(t0)} ms`);
    engine.dispose();
  }
}

await values();
await schemas();
await worker();
