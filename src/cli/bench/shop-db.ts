// Writes the shop database (shop-data.ts) as a SQLite file with sql.js, rows in time order
// ("insertion": rowids follow time, as in a real table that only grows) or shuffled (rowids in
// random order), and gathers what the query maker needs on the way: how many cells hold each
// word, and when each value of the late-growing columns first appears.

import initSqlJs from 'sql.js';
import { words as valueWords } from '../../core/text/normalize';
import { Shop, type Cell, type ShopTable } from './shop-data';

export type RowOrder = 'insertion' | 'shuffled';

/** Orders per MiB of file, measured on generated files (the other tables scale with orders). */
export const ORDERS_PER_MIB = 4_500;

/** Columns whose values appear over time; first appearances are tracked (time index / rows). */
export const GROWING_COLUMNS: Record<string, string[]> = {
  customers: ['city'],
  orders: ['status', 'promo_code'],
  tickets: ['agent'],
};
export interface ShopStats {
  /** `table.column` -> value -> first appearance as a share of the table's rows (time order). */
  firstSeen: Map<string, Map<string, number>>;
  /** Word (folded) -> number of text cells holding it, over every text column. */
  wordCells: Map<string, number>;
}

/** Collects ShopStats from the rows of one table, in any order. */
export class StatsCollector {
  readonly stats: ShopStats = { firstSeen: new Map(), wordCells: new Map() };

  table(t: ShopTable): (i: number, cells: Cell[]) => void {
    const growing = (GROWING_COLUMNS[t.name] ?? []).map((c) => {
      const seen = new Map<string, number>();
      this.stats.firstSeen.set(`${t.name}.${c}`, seen);
      return { at: t.columns.indexOf(c), seen };
    });
    const words = this.stats.wordCells;
    return (i, cells) => {
      for (const g of growing) {
        const v = cells[g.at];
        if (typeof v !== 'string') continue;
        const first = g.seen.get(v);
        if (first === undefined || i / t.rows < first) g.seen.set(v, i / t.rows);
      }
      for (const v of cells) {
        if (typeof v !== 'string') continue;
        for (const w of new Set(valueWords(v))) if (!/\d/.test(w)) words.set(w, (words.get(w) ?? 0) + 1);
      }
    };
  }
}

/** The statistics alone, from a pass over the rows without writing a file. */
export function shopStats(shop: Shop): ShopStats {
  const collector = new StatsCollector();
  for (const t of shop.tables()) {
    const see = collector.table(t);
    for (let i = 0; i < t.rows; i++) see(i, t.row(i));
  }
  return collector.stats;
}

export interface WrittenShop {
  bytes: Uint8Array;
  shop: Shop;
  stats: ShopStats;
  rows: Record<string, number>;
  buildMs: number;
}

export async function writeShopDb(
  options: { orders: number; order: RowOrder; seed: number },
  log?: (m: string) => void,
): Promise<WrittenShop> {
  const t0 = performance.now();
  const shop = new Shop(options.seed, options.orders, options.order === 'shuffled');
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  const collector = new StatsCollector();
  const rows: Record<string, number> = {};
  try {
    db.run('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144');
    for (const t of shop.tables()) {
      db.run(t.create);
      rows[t.name] = t.rows;
      log?.(`writing ${t.name} (${t.rows.toLocaleString('en-US')} rows, ${options.order} order) …`);
      // Rowid order: in a shuffled file row `rowid` holds the row of time index inv[rowid - 1].
      const inv = new Int32Array(t.rows);
      for (let i = 0; i < t.rows; i++) inv[shop.id(t.name as 'orders', i) - 1] = i;
      const see = collector.table(t);
      const insert = db.prepare(
        `INSERT INTO ${t.name} (${t.columns.join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`,
      );
      db.run('BEGIN');
      for (let r = 0; r < t.rows; r++) {
        const i = inv[r];
        const cells = t.row(i);
        insert.run(cells);
        see(i, cells);
      }
      db.run('COMMIT');
      insert.free();
    }
    log?.('exporting the file …');
    const bytes = db.export();
    return { bytes, shop, stats: collector.stats, rows, buildMs: Math.round(performance.now() - t0) };
  } finally {
    db.close();
  }
}
