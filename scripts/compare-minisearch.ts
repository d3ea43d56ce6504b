/**
 * MiniSearch against the value index's own postings, on the same values and queries, in one
 * process (docs/decisions/010-value-index.md). Values: the distinct short values of the bench's
 * shop (names, cities, product titles, brands, ticket subjects, agents, e-mails, codes); queries:
 * values as stored, with one edit, and with two edits in a word of 8+ letters (bench/typos.ts).
 *
 *   node --expose-gc --import tsx scripts/compare-minisearch.ts [--values 300000] [--queries 200]
 *
 * Memory is the heap + external growth after garbage collection while the index is held.
 */
import MiniSearch from 'minisearch';
import { seeded } from '../src/cli/bench/random';
import { Shop } from '../src/cli/bench/shop-data';
import { withTypos } from '../src/cli/bench/typos';
import { ValueIndex } from '../src/core/retrieval/value-index';
import { normalizeValue } from '../src/core/retrieval/value-text';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}
const VALUES = arg('values', 300_000);
const QUERIES = arg('queries', 200);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function held(): number {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

// The values: every short text cell of the shop, distinct, until there are VALUES of them.
const shop = new Shop(1, Math.ceil(VALUES / 1.2), true);
const seen = new Set<string>();
for (const t of shop.tables()) {
  for (let i = 0; i < t.rows && seen.size < VALUES; i++)
    for (const v of t.row(i)) if (typeof v === 'string' && v.length <= 100 && !/^\d{4}-\d\d-\d\d/.test(v)) seen.add(v);
}
const values = [...seen].slice(0, VALUES);
const rnd = seeded(11);
const pickValue = () => values[Math.floor(rnd() * values.length)];
const make = (edits: 0 | 1 | 2) => {
  const out: Array<{ query: string; expect: string }> = [];
  while (out.length < QUERIES) {
    const v = pickValue();
    const q = edits === 0 ? v : withTypos(v, edits, rnd);
    if (q) out.push({ query: q, expect: v });
  }
  return out;
};
const sets = { exact: make(0), typo1: make(1), typo2: make(2) };

interface Engine {
  name: string;
  search(q: string): string[];
}

function measure(engine: Engine) {
  const result: Record<string, { p50: number; p95: number; hitAt5: number }> = {};
  for (const [kind, qs] of Object.entries(sets)) {
    for (const q of qs.slice(0, 20)) engine.search(q.query); // warm-up
    const times: number[] = [];
    let hits = 0;
    for (const q of qs) {
      const t0 = performance.now();
      const top = engine.search(q.query);
      times.push(performance.now() - t0);
      if (top.slice(0, 5).includes(q.expect)) hits++;
    }
    times.sort((a, b) => a - b);
    result[kind] = {
      p50: Math.round(times[Math.floor(times.length / 2)] * 100) / 100,
      p95: Math.round(times[Math.floor(times.length * 0.95)] * 100) / 100,
      hitAt5: Math.round((hits / qs.length) * 1000) / 1000,
    };
  }
  return result;
}

const report: Record<string, unknown> = { values: values.length, queriesPerKind: QUERIES, node: process.version };

for (const fuzzy of [0.2, 0.34]) {
  const before = held();
  const t0 = performance.now();
  const mini = new MiniSearch<{ id: number; v: string }>({
    fields: ['v'],
    processTerm: (t) => normalizeValue(t) || null,
    searchOptions: { fuzzy, combineWith: 'OR' },
  });
  mini.addAll(values.map((v, id) => ({ id, v })));
  const buildMs = performance.now() - t0;
  const memoryMB = (held() - before) / 2 ** 20;
  report[`minisearch fuzzy ${fuzzy}`] = {
    buildMs: Math.round(buildMs),
    memoryMB: Math.round(memoryMB),
    ...measure({
      name: 'minisearch',
      search: (q) =>
        mini
          .search(q)
          .slice(0, 5)
          .map((r) => values[r.id as number]),
    }),
  };
}

{
  const before = held();
  const t0 = performance.now();
  const index = await ValueIndex.fromValues([
    { table: 't', column: 'v', values: Object.fromEntries(values.map((v) => [v, 1])) },
  ]);
  const buildMs = performance.now() - t0;
  const memoryMB = (held() - before) / 2 ** 20;
  report['value index (own postings)'] = {
    buildMs: Math.round(buildMs),
    memoryMB: Math.round(memoryMB),
    countedMB: Math.round(index.memoryBytes() / 2 ** 20),
    ...measure({ name: 'own', search: (q) => index.search(q, { k: 5 }).map((h) => h.value) }),
  };
}
console.log(JSON.stringify(report, null, 2));
