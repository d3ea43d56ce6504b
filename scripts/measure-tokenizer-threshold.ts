/**
 * From what size a tokenizing worker pays for its start-up (decision 014): builds the tools of
 * generated notes databases of growing size with and without a worker, alternating, and prints
 * the median build time of each.
 *
 *   npx tsx scripts/measure-tokenizer-threshold.ts [--rows 2000,10000,30000,60000] [--runs 3]
 */
import { createNodeEngine } from '../src/adapters/sqljs/node';
import { buildDb, notesSql } from '../src/test-support/build-db';
import { nodeTokenizerWorkers } from '../src/worker/node/spawn';

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const sizes = arg('rows', '2000,10000,30000,60000').split(',').map(Number);
const runs = Number(arg('runs', '3'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const rows of sizes) {
  const bytes = await buildDb(notesSql(rows));
  const times: Record<'engine' | 'worker', number[]> = { engine: [], worker: [] };
  for (let run = 0; run < runs; run++)
    for (const way of ['engine', 'worker'] as const) {
      const engine = await createNodeEngine(way === 'worker' ? { tokenizerWorkers: nodeTokenizerWorkers(0) } : {});
      await engine.open({ id: 'n', name: 'notes', bytes });
      await engine.introspect('n');
      const t0 = performance.now();
      const summary = await engine.buildTools('n');
      times[way].push(performance.now() - t0);
      if (summary.tokenizedIn !== way) throw new Error(`expected ${way}, got ${summary.tokenizedIn}`);
    }
  const e = median(times.engine);
  const w = median(times.worker);
  console.log(
    `${rows} rows (${rows * 4} text cells, ${(bytes.length / 2 ** 20).toFixed(1)} MiB): engine ${Math.round(e)} ms, worker ${Math.round(w)} ms (${(w / e).toFixed(2)}×)`,
  );
}
