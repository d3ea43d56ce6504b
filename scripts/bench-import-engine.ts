/**
 * The import alone, in process (decision 065's addendum): a table file opened with the Node
 * engine three times, each timed (wall clock and CPU); the CLI's start and worker thread left out. Make a file with
 * `npx tsx scripts/bench-csv-import.ts 100` (it prints where), then:
 *
 *   npx tsx scripts/bench-import-engine.ts /tmp/csv-bench-…/orders.csv
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createNodeEngine } from '../src/adapters/sqljs/node';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: npx tsx scripts/bench-import-engine.ts <file.csv>');
  const engine = await createNodeEngine();
  const bytes = new Uint8Array(readFileSync(file));
  const name = basename(file);
  for (let r = 1; r <= 3; r++) {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const report = await engine.open({ id: `b${r}`, name, bytes: new Uint8Array(), tables: [{ name, bytes }] });
    const imported = report.issues.find((i) => i.code === 'imported')?.message ?? '';
    const used = process.cpuUsage(cpu);
    // CPU time as well: on a shared machine the wall clock measures the neighbours too.
    console.log(
      `run ${r}: import ${Math.round(performance.now() - t)} ms, CPU ${Math.round((used.user + used.system) / 1000)} ms (${imported.slice(0, 60)})`,
    );
    await engine.close(`b${r}`);
  }
}

void main();
