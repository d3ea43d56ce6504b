/**
 * What a chart of a large result costs before anything is drawn (issue 35, item 12): the page's
 * chart view proposes a chart (chooseChart) and makes its points (chartData) on the main thread
 * from every row it holds; Plot then draws at most MAX_POINTS of them. Rows of two measures and a
 * category; each size is run 3 times and the median reported, with the points kept.
 *
 *   npx tsx scripts/bench-chart-data.ts [rows=100000,200000,1000000]
 */
import { performance } from 'node:perf_hooks';
import { chartData } from '../src/core/charts/chart-data';
import { chooseChart } from '../src/core/charts/choose-chart';
import type { SqlValue } from '../src/core/types';

const sizes = (process.argv[2] ?? '100000,200000,1000000').split(',').map(Number);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const n of sizes) {
  const rows: SqlValue[][] = Array.from({ length: n }, (_, i) => [i * 0.5, (i * 7919) % 1000, `g${i % 7}`]);
  const columns = ['x', 'y', 'grp'];
  const times: Record<string, number[]> = {};
  let kept = 0;
  for (let run = 0; run < 3; run++) {
    let t = performance.now();
    const proposed = chooseChart(columns, rows);
    (times.choose ??= []).push(performance.now() - t);
    for (const type of ['scatter', 'histogram', 'line', 'bar'] as const) {
      t = performance.now();
      const data = chartData(columns, rows, { ...proposed, type, x: type === 'bar' ? 2 : 0, y: 1 });
      (times[type] ??= []).push(performance.now() - t);
      kept = Math.max(kept, data.points.length);
    }
  }
  const parts = Object.entries(times).map(([k, v]) => `${k} ${median(v).toFixed(0)} ms`);
  console.log(`${n.toLocaleString('en-US')} rows: ${parts.join(', ')}; at most ${kept} points drawn`);
}
