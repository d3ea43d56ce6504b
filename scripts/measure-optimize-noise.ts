// How often Optimize would accept a "rewrite" that is the same query (docs/decisions/050): the
// query wrapped as `SELECT * FROM (…)`, which SQLite flattens back into the same plan, so any
// speed-up measured is timing noise. Runs optimizeSql as the CLI does (engine in a worker
// thread, median of 5 interleaved runs) on the demo database and prints, per query, the spread
// of measured speed-ups and how many trials each margin would have accepted.
// Run: npx tsx scripts/measure-optimize-noise.ts [trials=20] [runs=5]
import path from 'node:path';
import { createScriptedModel } from '../src/core/llm/scripted';
import { executorFor } from '../src/core/executor';
import { OPTIMIZE_MIN_SAVING_MS, optimizeSql } from '../src/core/tasks/optimize-sql';
import { openDatabase } from '../src/cli/open-database';

const trials = Number(process.argv[2] ?? 20);
const runs = Number(process.argv[3] ?? 7);
const QUERIES = [
  "SELECT customer_id FROM customers WHERE country = 'Canada'",
  'SELECT c.country, count(*) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY c.country',
  'SELECT p.name, sum(i.quantity) FROM order_items i JOIN products p ON p.product_id = i.product_id GROUP BY p.name ORDER BY 2 DESC',
];
const MARGINS = [0.1, 0.2, 0.3];

const db = await openDatabase(path.join(import.meta.dirname, '..', 'public', 'demo.sqlite'), 60_000);
const schema = await db.engine.introspect(db.id);
const exec = executorFor(db.engine, db.id);
for (const sql of QUERIES) {
  const pairs: Array<{ a: number; b: number; allPairs: boolean }> = [];
  for (let t = 0; t < trials; t++) {
    const model = createScriptedModel([{ text: `SELECT * FROM (${sql})` }]);
    const r = await optimizeSql({ sql, schema, model, exec, runs, margin: 0, minSavingMs: 0 });
    if (!r.sameResults || r.rewrite?.medianMs == null) throw new Error(`unexpected: ${r.reason}`);
    const allPairs = r.rewrite.timesMs.every((t, i) => t < r.original.timesMs[i]);
    pairs.push({ a: r.original.medianMs!, b: r.rewrite.medianMs, allPairs });
  }
  const speedups = pairs.map((p) => p.a / p.b).sort((x, y) => x - y);
  const mean = pairs.reduce((n, p) => n + p.a, 0) / trials;
  // The product's rule: b ≤ a·(1 − margin), a − b ≥ OPTIMIZE_MIN_SAVING_MS, every interleaved pair won.
  const accepted = MARGINS.map((m) => {
    const byMargin = pairs.filter((p) => p.b <= p.a * (1 - m)).length;
    const withFloor = pairs.filter((p) => p.b <= p.a * (1 - m) && p.a - p.b >= OPTIMIZE_MIN_SAVING_MS).length;
    const rule = pairs.filter((p) => p.b <= p.a * (1 - m) && p.a - p.b >= OPTIMIZE_MIN_SAVING_MS && p.allPairs).length;
    return `${Math.round(m * 100)}%: ${byMargin}/${trials} (+ ${OPTIMIZE_MIN_SAVING_MS} ms floor ${withFloor}; + every pair won ${rule})`;
  });
  console.log(
    `${sql.slice(0, 50)}…  original ≈ ${mean.toFixed(2)} ms; same-query speed-up min ${speedups[0].toFixed(2)} ` +
      `median ${speedups[Math.floor(trials / 2)].toFixed(2)} max ${speedups.at(-1)!.toFixed(2)}; accepted at margin ${accepted.join(', ')}`,
  );
}
db.engine.dispose();
