// The search_value queries of the realistic bench, in the `--queries` file format:
// { "<kind>": [{ "query", "table"?, "column"?, "expect" }] }. Each query is made from a cell of
// a row drawn uniformly (so common values are asked about more often, as people do), and
// `expect` is the value as stored. Kinds:
//   exact     a name, city, product title, brand, ticket subject or support agent, as stored
//   typo1     the same with one edit anywhere in a word of 4+ letters
//   typo2     two edits inside one word of 8+ letters
//   prefix    the first 60% of a name, title, city or subject
//   code      a unique code: order code, ticket reference, SKU or e-mail
//   freetext  a rare word (in at most 3 cells of the whole database) of an order note or a
//             ticket body; expect the text
//   late      a value that first appears after 90% of its table's rows (in time order), so a
//             sample of the first rows never sees it

import { seeded } from './random';
import type { ShopStats } from './shop-db';
import type { Shop, ShopTable } from './shop-data';
import { withTypos } from './typos';
import { words } from '../../core/text/normalize';

export interface BenchQuery {
  query: string;
  table?: string;
  column?: string;
  expect: string;
}

export type QueryFile = Record<string, BenchQuery[]>;

const PREFIX_SHARE = 0.6;
const FREETEXT_MAX_CELLS = 3;
const LATE_AFTER = 0.9;

type Source = [table: string, column: string];
const NAMED: Source[] = [
  ['customers', 'full_name'],
  ['customers', 'city'],
  ['products', 'title'],
  ['products', 'brand'],
  ['tickets', 'subject'],
  ['tickets', 'agent'],
];
const PREFIXED: Source[] = [
  ['customers', 'full_name'],
  ['customers', 'city'],
  ['products', 'title'],
  ['tickets', 'subject'],
];
const CODES: Source[] = [
  ['orders', 'order_code'],
  ['tickets', 'ticket_ref'],
  ['products', 'sku'],
  ['customers', 'email'],
];
const FREE_TEXT: Source[] = [
  ['orders', 'note'],
  ['tickets', 'body'],
];

export function makeShopQueries(shop: Shop, stats: ShopStats, perKind: number, seed: number): QueryFile {
  const rnd = seeded(seed);
  const tables = new Map(shop.tables().map((t) => [t.name, t]));
  /** A non-empty cell of a uniformly drawn row. */
  const draw = ([table, column]: Source): string | null => {
    const t = tables.get(table) as ShopTable;
    const v = t.row(Math.floor(rnd() * t.rows))[t.columns.indexOf(column)];
    return typeof v === 'string' && v.trim() !== '' ? v : null;
  };
  const fill = (make: () => BenchQuery | null): BenchQuery[] => {
    const out: BenchQuery[] = [];
    for (let tries = 0; out.length < perKind && tries < perKind * 200; tries++) {
      const q = make();
      if (q) out.push(q);
    }
    return out;
  };
  const from = (sources: Source[]) => sources[Math.floor(rnd() * sources.length)];

  const lateValues = [...stats.firstSeen.values()]
    .flatMap((seen) => [...seen].filter(([, first]) => first > LATE_AFTER).map(([v]) => v))
    .sort();

  return {
    exact: fill(() => {
      const v = draw(from(NAMED));
      return v ? { query: v, expect: v } : null;
    }),
    typo1: fill(() => {
      const v = draw(from(NAMED));
      const q = v && withTypos(v, 1, rnd);
      return q ? { query: q, expect: v! } : null;
    }),
    typo2: fill(() => {
      const v = draw(from(NAMED));
      const q = v && withTypos(v, 2, rnd);
      return q ? { query: q, expect: v! } : null;
    }),
    prefix: fill(() => {
      const v = draw(from(PREFIXED));
      return v && v.length >= 6 ? { query: v.slice(0, Math.ceil(v.length * PREFIX_SHARE)), expect: v } : null;
    }),
    code: fill(() => {
      const v = draw(from(CODES));
      return v ? { query: v, expect: v } : null;
    }),
    freetext: fill(() => {
      const v = draw(from(FREE_TEXT));
      if (!v) return null;
      const rare = [...new Set(words(v))]
        .filter((w) => w.length >= 5 && !/\d/.test(w) && (stats.wordCells.get(w) ?? 0) <= FREETEXT_MAX_CELLS)
        .sort((a, b) => stats.wordCells.get(a)! - stats.wordCells.get(b)! || (a < b ? -1 : 1));
      if (rare.length === 0) return null;
      // As written in the text (the capitalised word), not the folded form.
      const written = v.match(new RegExp(`\\b${rare[0]}\\b`, 'i'))?.[0] ?? rare[0];
      return { query: written, expect: v };
    }),
    late:
      lateValues.length === 0
        ? []
        : fill(() => {
            const v = lateValues[Math.floor(rnd() * lateValues.length)];
            return { query: v, expect: v };
          }),
  };
}
