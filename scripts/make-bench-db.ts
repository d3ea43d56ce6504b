/**
 * Generates a realistic bench database (a shop: customers, products, orders with free-text
 * notes, support tickets; unique codes, skewed categories, names, values that appear late) and
 * its search_value queries, for `dowser bench --db … --queries …`.
 *
 *   npx tsx scripts/make-bench-db.ts --mb 100 --order insertion|shuffled [--seed 1]
 *                                    [--queries 200] [--out .scratch/bench] [--queries-only]
 *
 * Writes <out>/shop-<mb>mb-<order>-s<seed>.sqlite, .queries.json and .info.json. The same
 * arguments give the same bytes; both orders hold the same rows (ids permuted when shuffled),
 * and get the same queries. --queries-only remakes the queries file without writing the database.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Shop } from '../src/cli/bench/shop-data';
import { ORDERS_PER_MIB, shopStats, writeShopDb, type RowOrder } from '../src/cli/bench/shop-db';
import { makeShopQueries } from '../src/cli/bench/shop-queries';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

const mb = Number(arg('mb', '100'));
const order = arg('order', 'insertion') as RowOrder;
const seed = Number(arg('seed', '1'));
const perKind = Number(arg('queries', '200'));
const out = arg('out', '.scratch/bench');
if (!(mb > 0) || !['insertion', 'shuffled'].includes(order) || !Number.isInteger(seed) || !(perKind > 0)) {
  console.error(
    'Usage: npx tsx scripts/make-bench-db.ts --mb N --order insertion|shuffled [--seed N] [--queries N] [--out dir]',
  );
  process.exit(2);
}

const orders = Math.max(100, Math.round(mb * ORDERS_PER_MIB));
const base = join(out, `shop-${mb}mb-${order}-s${seed}`);
mkdirSync(out, { recursive: true });
if (process.argv.includes('--queries-only')) {
  const shop = new Shop(seed, orders, order === 'shuffled');
  const queries = makeShopQueries(shop, shopStats(shop), perKind, seed + 7);
  writeFileSync(`${base}.queries.json`, JSON.stringify(queries, null, 1) + '\n');
  console.log(`${base}.queries.json`);
  process.exit(0);
}
const written = await writeShopDb({ orders, order, seed }, (m) => console.error(`[make-bench-db] ${m}`));
writeFileSync(`${base}.sqlite`, written.bytes);
const queries = makeShopQueries(written.shop, written.stats, perKind, seed + 7);
writeFileSync(`${base}.queries.json`, JSON.stringify(queries, null, 1) + '\n');
const info = {
  mb,
  order,
  seed,
  sizeBytes: written.bytes.byteLength,
  rows: written.rows,
  buildMs: written.buildMs,
  queries: Object.fromEntries(Object.entries(queries).map(([k, v]) => [k, v.length])),
};
writeFileSync(`${base}.info.json`, JSON.stringify(info, null, 2) + '\n');
console.log(`${base}.sqlite: ${(info.sizeBytes / 2 ** 20).toFixed(1)} MiB in ${(written.buildMs / 1000).toFixed(1)} s`);
