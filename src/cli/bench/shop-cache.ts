// The default bench's database: a generated shop (shop-data.ts) of a given size, kept in a
// cache folder with its queries, keyed by its parameters. Generating 100 MB takes about 15 s;
// reusing the file takes milliseconds.

import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORDERS_PER_MIB, writeShopDb, type RowOrder } from './shop-db';
import { makeShopQueries, type QueryFile } from './shop-queries';

/** Bump when the generated contents change, so stale cached files are not reused. */
const GENERATOR_VERSION = 1;

export interface ShopFile {
  /** Path of the file, or null when it was made in memory only. */
  path: string | null;
  bytes: Uint8Array;
  queries: QueryFile;
  rows: Record<string, number>;
  reused: boolean;
  buildMs: number;
}

export interface ShopFileOptions {
  mb: number;
  order: RowOrder;
  seed: number;
  queriesPerKind: number;
  /** Cache folder; null generates in memory every time. */
  cacheDir: string | null;
  log?(message: string): void;
}

export async function ensureShopFile(o: ShopFileOptions): Promise<ShopFile> {
  const base =
    o.cacheDir === null
      ? null
      : join(
          o.cacheDir,
          `dowser-bench-shop-v${GENERATOR_VERSION}-${o.mb}mb-${o.order}-s${o.seed}-q${o.queriesPerKind}`,
        );
  if (base && existsSync(`${base}.sqlite`) && existsSync(`${base}.json`)) {
    try {
      const meta = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Omit<ShopFile, 'bytes' | 'path' | 'reused'>;
      const b = readFileSync(`${base}.sqlite`);
      return {
        ...meta,
        bytes: new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
        path: `${base}.sqlite`,
        reused: true,
      };
    } catch {
      // A damaged cache entry is rebuilt below.
    }
  }
  o.log?.(`generating the shop database (${o.mb} MB, ${o.order} order, seed ${o.seed}) …`);
  const orders = Math.max(100, Math.round(o.mb * ORDERS_PER_MIB));
  const written = await writeShopDb({ orders, order: o.order, seed: o.seed }, o.log);
  const queries = makeShopQueries(written.shop, written.stats, o.queriesPerKind, o.seed + 7);
  const meta = { queries, rows: written.rows, buildMs: written.buildMs };
  if (base) {
    mkdirSync(o.cacheDir!, { recursive: true });
    // Written under a temporary name and renamed: a run stopped half-way leaves no partial file.
    const tmp = `${base}.${process.pid}.tmp`;
    writeFileSync(tmp, written.bytes);
    renameSync(tmp, `${base}.sqlite`);
    writeFileSync(`${base}.json`, JSON.stringify(meta) + '\n');
  }
  return { ...meta, bytes: written.bytes, path: base ? `${base}.sqlite` : null, reused: false };
}
