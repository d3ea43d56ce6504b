/**
 * Sorting and filtering the rows a result holds (issue 24 target: each under 100 ms for 100,000
 * rows on the main thread). Rows as people's files have them: unique codes, free text, skewed
 * categories (a few frequent, a long tail), numbers with NULLs, ISO dates, numbers stored as text,
 * in insertion order. The page makes one view per result; its first sort or filter of a column
 * works out that column's keys, later ones reuse them. Reports that first run (cold) and the median
 * and worst of 7 more (warm), each on a fresh result so no run shares another's keys.
 *
 *   npx tsx scripts/bench-row-view.ts [rows=100000]
 */
import { performance } from 'node:perf_hooks';
import { mulberry32 } from '../src/core/random';
import { createRowView, type RowViewOptions } from '../src/core/results/row-view';
import type { SqlValue } from '../src/core/types';

const n = Number(process.argv[2] ?? 100_000);
const random = mulberry32(24);
const words = 'river stone amber quiet north delivery invoice late refund express parcel garden blue seven'.split(' ');
const countries = ['Germany', 'France', 'United States', 'Brazil', 'India', 'Japan', 'Kenya', 'Norway'];
const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
// Skew: the first category of every ten draws is most of them.
const skewed = () => (random() < 0.6 ? countries[0] : random() < 0.7 ? countries[1] : pick(countries));

const rows: SqlValue[][] = [];
for (let i = 0; i < n; i++) {
  const day = new Date(Date.UTC(2015, 0, 1) + Math.floor(random() * 3650) * 86_400_000).toISOString().slice(0, 10);
  rows.push([
    i + 1,
    `ORD-${(1_000_000 + Math.floor(random() * 9_000_000)).toString(36).toUpperCase()}`,
    skewed(),
    Array.from({ length: 3 + Math.floor(random() * 12) }, () => pick(words)).join(' '),
    random() < 0.05 ? null : Math.round(random() * 100_000) / 100,
    day,
    random() < 0.5 ? String(Math.floor(random() * 500)) : Math.floor(random() * 500),
  ]);
}
const columns = ['id', 'code', 'country', 'note', 'amount', 'day', 'qty (mixed)'];

const cases: Array<[string, RowViewOptions]> = [
  ...columns.flatMap(
    (c, i): Array<[string, RowViewOptions]> => [
      [`sort ${c} asc`, { sort: { column: i, direction: 'asc' } }],
      [`sort ${c} desc`, { sort: { column: i, direction: 'desc' } }],
    ],
  ),
  ['filter note contains "refund"', { filters: new Map([[3, { kind: 'text', contains: 'refund' }]]) }],
  ['filter amount 100..500', { filters: new Map([[4, { kind: 'range', min: 100, max: 500 }]]) }],
  ['quick filter "germ"', { quick: 'germ' }],
  ['quick filter "zzz" (no match)', { quick: 'zzz' }],
  ['quick "express" + sort amount desc', { quick: 'express', sort: { column: 4, direction: 'desc' } }],
];

console.log(`${n.toLocaleString('en')} rows, node ${process.version}`);
console.log('| operation | first ms | median ms | worst ms | rows shown |');
console.log('|---|---|---|---|---|');
for (const [name, view] of cases) {
  const times: number[] = [];
  let shown = 0;
  let first: number;
  const fresh = createRowView(rows.map((r) => r.slice()));
  {
    const t = performance.now();
    fresh.view(view);
    first = performance.now() - t;
  }
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    shown = fresh.view(view).length;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `| ${name} | ${first.toFixed(1)} | ${times[3].toFixed(1)} | ${times[6].toFixed(1)} | ${shown.toLocaleString('en')} |`,
  );
}

// The approach decision 062 rejected, on the same rows: Intl.Collator's compare for every pair.
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
for (const [name, c] of [
  ['code', 1],
  ['note', 3],
  ['day', 5],
] as const) {
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    rows.map((_, i) => i).sort((i, j) => collator.compare(rows[i][c] as string, rows[j][c] as string) || i - j);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `| sort ${name} asc with Intl.Collator (rejected) | | ${times[1].toFixed(1)} | ${times[2].toFixed(1)} | |`,
  );
}
