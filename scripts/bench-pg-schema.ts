/**
 * Connecting to a PostgreSQL database and reading a wide schema (issue 36's target: a 200-table ×
 * 50-column schema introspected in < 2 s), on a throw-away cluster: 200 tables of 50 columns
 * (mixed types, a primary key, a foreign key to the table before, a comment on each table), each
 * with 100 rows and ANALYZEd. Reports connect, introspect and one column's statistics, median of 5.
 *
 *   npx tsx scripts/bench-pg-schema.ts [tables=200] [columns=50]
 */
import { performance } from 'node:perf_hooks';
import { PostgresEngine } from '../src/adapters/postgres/engine';
import { runSql, startCluster } from './pg-cluster.mjs';

const tables = Number(process.argv[2] ?? 200);
const columns = Number(process.argv[3] ?? 50);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const TYPES = ['integer', 'text', 'numeric(10,2)', 'date', 'boolean', 'varchar(40)', 'bigint', 'timestamptz'];

const cluster = await startCluster();
try {
  await runSql(cluster, 'CREATE DATABASE wide');
  const ddl: string[] = [];
  for (let t = 0; t < tables; t++) {
    const cols = [`id integer PRIMARY KEY`, t > 0 ? `parent_id integer REFERENCES t${t - 1}(id)` : `parent_id integer`];
    for (let c = 2; c < columns; c++) cols.push(`c${c} ${TYPES[c % TYPES.length]}`);
    ddl.push(`CREATE TABLE t${t} (${cols.join(', ')});`, `COMMENT ON TABLE t${t} IS 'table number ${t}';`);
    ddl.push(
      `INSERT INTO t${t} (id${t > 0 ? ', parent_id' : ''}) SELECT g${t > 0 ? ', g' : ''} FROM generate_series(1, 100) g;`,
    );
  }
  ddl.push('ANALYZE;');
  await runSql(cluster, ddl.join('\n'), 'wide');
  const url = cluster.url.replace(/\/postgres$/, '/wide');
  const times: Record<string, number[]> = { connect: [], introspect: [], stats: [] };
  let found = 0;
  for (let run = 0; run < 5; run++) {
    const engine = new PostgresEngine();
    let t0 = performance.now();
    await engine.connect({ id: 'w', target: { url, env: {} } });
    times.connect.push(performance.now() - t0);
    t0 = performance.now();
    const schema = await engine.introspect('w');
    times.introspect.push(performance.now() - t0);
    found = schema.tables.reduce((n, t) => n + t.columns.length, 0);
    t0 = performance.now();
    await engine.columnStats('w', 't100', 'c3');
    times.stats.push(performance.now() - t0);
    await engine.closeAll();
  }
  console.log(`${tables} tables × ${columns} columns (${found} columns read)`);
  for (const [k, v] of Object.entries(times))
    console.log(`  ${k.padEnd(10)} median ${median(v).toFixed(0)} ms (${v.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  peak RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
} finally {
  await cluster.stop();
}
