// The realistic bench database: a shop with customers, products, orders and support tickets,
// shaped like real data where the value index is hard: free-text notes and ticket bodies,
// unique codes (order codes, ticket references, SKUs, e-mails), skewed categories, people's
// names with a long tail, and values that only appear late (new cities, campaigns, a new status,
// new support agents), so a sample of the first rows misses them.
//
// Every row is a pure function of (seed, table, row number in time order), so the writer can
// emit rows in time ("insertion") order or shuffled, and the query maker can read back any cell
// without storing the table. Sizes scale with `orders`.

import { mulberry32 } from '../../core/random';
import * as S from './shop-words';
import * as W from './words';

export interface ShopSizes {
  customers: number;
  products: number;
  orders: number;
  tickets: number;
}

/** Table sizes for a number of orders (the other tables scale with it). */
export function shopSizes(orders: number): ShopSizes {
  return {
    customers: Math.max(50, Math.round(orders / 10)),
    products: Math.max(40, Math.round(orders / 50)),
    orders,
    tickets: Math.max(20, Math.round(orders / 4)),
  };
}

export type Cell = string | number | null;

export interface ShopTable {
  name: string;
  create: string;
  columns: string[];
  rows: number;
  /** Cells of row `i` (0-based, time order); the id is `id(i)`. */
  row(i: number): Cell[];
}

/** murmur3's finaliser: spreads a 32-bit integer over all bits. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const rngFor = (seed: number, salt: number, i: number) => mulberry32(mix(mix(seed ^ Math.imul(salt, 0x9e3779b1)) ^ i));

/** Index into `n` items, heavily skewed to the first ones (a power law). */
const skewed = (r: () => number, n: number, power = 3) => Math.min(n - 1, Math.floor(n * r() ** power));

function weighted<T>(r: () => number, items: ReadonlyArray<[T, number]>): T {
  let x = r();
  for (const [v, w] of items) {
    if (x < w) return v;
    x -= w;
  }
  return items[items.length - 1][0];
}

const pick = <T>(r: () => number, items: readonly T[]): T => items[Math.floor(r() * items.length)];
const capital = (w: string) => w[0].toUpperCase() + w.slice(1);
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const BASE32 = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A coined word for a number: the same number always gives the same word. */
export function coined(id: number, salt: number, min = 2, max = 3): string {
  const r = mulberry32(mix(id * 7919 + salt));
  const n = min + Math.floor(r() * (max - min + 1));
  let w = '';
  for (let i = 0; i < n; i++) w += pick(r, W.SYLLABLES);
  return w;
}

/** Calendar time of a moment t in [0, 1): 2015-01-01 to 2024-12-31. */
function dateAt(t: number, r: () => number): string {
  const ms = Date.UTC(2015, 0, 1) + t * (Date.UTC(2025, 0, 1) - Date.UTC(2015, 0, 1)) + r() * 3_600_000;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export class Shop {
  readonly sizes: ShopSizes;
  /** id of the row at time index i, per table (1-based ids; shuffled files permute them). */
  private readonly ids: Record<keyof ShopSizes, Int32Array | null>;
  private readonly cityCount: number;
  private readonly surnamePool: number;
  private readonly brandCount: number;

  constructor(
    readonly seed: number,
    orders: number,
    shuffled: boolean,
  ) {
    this.sizes = shopSizes(orders);
    const perm = (n: number, salt: number) => {
      if (!shuffled) return null;
      const a = Int32Array.from({ length: n }, (_, i) => i + 1);
      const r = rngFor(seed, salt, 0);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        const x = a[i];
        a[i] = a[j];
        a[j] = x;
      }
      return a;
    };
    this.ids = {
      customers: perm(this.sizes.customers, 101),
      products: perm(this.sizes.products, 102),
      orders: perm(this.sizes.orders, 103),
      tickets: perm(this.sizes.tickets, 104),
    };
    this.cityCount = Math.max(30, Math.round(this.sizes.customers / 12));
    this.surnamePool = Math.max(50, Math.round(this.sizes.customers / 4));
    this.brandCount = Math.max(10, Math.round(this.sizes.products / 15));
  }

  id(table: keyof ShopSizes, i: number): number {
    const p = this.ids[table];
    return p ? p[i] : i + 1;
  }

  /** Time index of the row whose id is `id`. */
  private cityName(cityId: number): string {
    const r = mulberry32(mix(cityId + 5003));
    const name = capital(coined(cityId, 11, 1, 2) + pick(r, W.PLACE_SUFFIX));
    const x = r();
    return x < 0.25 ? `${pick(r, W.PLACE_PREFIX)} ${name}` : x < 0.4 ? `${name} ${pick(r, W.PLACE_EXTRA)}` : name;
  }

  /** Cities in use at time t: the list grows, so the last ones appear only late. */
  city(t: number, r: () => number): string {
    const available = Math.max(1, Math.floor(this.cityCount * (0.2 + 0.8 * t)));
    return this.cityName(skewed(r, available, 2));
  }

  /** A first-appearing-late city: one of the last 5% of the list. */
  lateCity(k: number): string {
    return this.cityName(this.cityCount - 1 - (k % Math.max(1, Math.floor(this.cityCount * 0.05))));
  }

  firstName(r: () => number): string {
    return r() < 0.85 ? W.FIRST_NAMES[skewed(r, W.FIRST_NAMES.length, 2)] : capital(coined(skewed(r, 3000, 2), 13));
  }

  lastName(r: () => number): string {
    return r() < 0.5
      ? W.SURNAMES[skewed(r, W.SURNAMES.length, 2)]
      : capital(coined(skewed(r, this.surnamePool, 2), 17, 2, 4));
  }

  /** A coined word from the long tail of free text (Zipf-like over a large vocabulary). */
  rare(r: () => number): string {
    return coined(skewed(r, 40 * this.surnamePool, 2), 19, 2, 4);
  }

  brand(b: number): string {
    return capital(coined(b, 23, 2, 3));
  }

  productTitle(i: number): string {
    const r = rngFor(this.seed, 2, i);
    const b = skewed(r, this.brandCount, 2);
    const base = `${this.brand(b)} ${pick(r, W.ADJECTIVES)} ${pick(r, W.MATERIALS)} ${pick(r, W.NOUNS)}`;
    const x = r();
    return x < 0.4 ? `${base} ${pick(r, W.SIZES)}` : base;
  }

  orderCode(i: number): string {
    const t = i / this.sizes.orders;
    return `SO-${2015 + Math.floor(t * 10)}-${pad(i + 1, 7)}`;
  }

  private campaign(t: number, r: () => number): string | null {
    if (r() < 0.6) return null;
    // A campaign runs for a quarter: its codes appear only in that stretch of time.
    const quarter = Math.floor(t * 40);
    const name = S.CAMPAIGNS[mix(quarter + 31) % S.CAMPAIGNS.length];
    return `${name}${pad((15 + Math.floor(quarter / 4)) % 100, 2)}${r() < 0.3 ? '-' + pad(10 * (1 + Math.floor(r() * 5)), 2) : ''}`;
  }

  agent(t: number, r: () => number): string {
    // The support team grows: agents hired late appear only in the last tickets.
    const team = Math.max(5, Math.floor(8 + 60 * t * t));
    const a = skewed(r, team, 1.5);
    const rr = mulberry32(mix(a + 7001));
    return `${this.firstName(rr)} ${this.lastName(rr)}`;
  }

  /** Fills a template's slots. */
  private fill(template: string, r: () => number, t: number): string {
    return template.replace(/\{(\w+)\}/g, (_, slot: string) => {
      switch (slot) {
        case 'verb':
          return pick(r, S.VERBS);
        case 'problem':
          return pick(r, S.PROBLEMS);
        case 'thing':
          return pick(r, S.THINGS);
        case 'who':
          return pick(r, S.PEOPLE_WORDS);
        case 'when':
          return pick(r, S.TIME_WORDS);
        case 'first':
          return this.firstName(r);
        case 'last':
          return this.lastName(r);
        case 'item':
          return pick(r, W.NOUNS).toLowerCase();
        case 'title':
          return this.productTitle(Math.floor(r() * this.productsAt(t)));
        case 'city':
          return this.city(t, r);
        case 'num':
          return String(1 + Math.floor(r() * 99));
        case 'code':
          return this.orderCode(Math.floor(r() * Math.max(1, t * this.sizes.orders)));
        case 'rare':
          return capital(this.rare(r));
        default:
          return slot;
      }
    });
  }

  private productsAt(t: number): number {
    return Math.max(1, Math.floor(this.sizes.products * (0.3 + 0.7 * t)));
  }

  text(r: () => number, t: number, sentences: number): string {
    const out: string[] = [];
    for (let s = 0; s < sentences; s++) out.push(this.fill(pick(r, S.SENTENCES), r, t));
    return out.join(' ');
  }

  tables(): ShopTable[] {
    const { seed, sizes } = this;
    return [
      {
        name: 'customers',
        create:
          'CREATE TABLE customers (id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, email TEXT, city TEXT, country TEXT, segment TEXT, signup_date TEXT)',
        columns: ['id', 'full_name', 'email', 'city', 'country', 'segment', 'signup_date'],
        rows: sizes.customers,
        row: (i) => {
          const t = i / sizes.customers;
          const r = rngFor(seed, 1, i);
          const first = this.firstName(r);
          const last = this.lastName(r);
          const countries = Math.min(W.COUNTRIES.length, 8 + Math.floor((W.COUNTRIES.length - 8) * t * t));
          const local = `${first}.${last}`
            .normalize('NFD')
            .replace(/\p{M}/gu, '')
            .toLowerCase()
            .replace(/[^a-z.]/g, '');
          return [
            this.id('customers', i),
            `${first} ${last}`,
            `${local}.${(i + 1).toString(36)}@${pick(r, S.DOMAINS)}`,
            this.city(t, r),
            W.COUNTRIES[skewed(r, countries, 2)],
            weighted(r, S.SEGMENTS),
            dateAt(t, r).slice(0, 10),
          ];
        },
      },
      {
        name: 'products',
        create:
          'CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT NOT NULL, title TEXT NOT NULL, brand TEXT, category TEXT, price REAL)',
        columns: ['id', 'sku', 'title', 'brand', 'category', 'price'],
        rows: sizes.products,
        row: (i) => {
          const title = this.productTitle(i);
          const r = rngFor(seed, 3, i);
          const brand = title.split(' ')[0];
          const noun = W.NOUNS.find((n) => title.includes(' ' + n)) ?? 'Other';
          return [
            this.id('products', i),
            `${brand.slice(0, 3).toUpperCase()}-${pad(i + 1, 6)}-${BASE32[i % 32]}${BASE32[mix(i) % 32]}`,
            title,
            brand,
            noun,
            Math.round(r() * 50_000) / 100,
          ];
        },
      },
      {
        name: 'orders',
        create:
          'CREATE TABLE orders (id INTEGER PRIMARY KEY, order_code TEXT NOT NULL, customer_id INTEGER REFERENCES customers(id), product_id INTEGER REFERENCES products(id), status TEXT, channel TEXT, promo_code TEXT, created_at TEXT, note TEXT)',
        columns: [
          'id',
          'order_code',
          'customer_id',
          'product_id',
          'status',
          'channel',
          'promo_code',
          'created_at',
          'note',
        ],
        rows: sizes.orders,
        row: (i) => {
          const t = i / sizes.orders;
          const r = rngFor(seed, 4, i);
          const customers = Math.max(1, Math.floor(sizes.customers * t));
          const status = t > 0.93 && r() < 0.05 ? S.LATE_STATUS : weighted(r, S.STATUSES_EARLY);
          return [
            this.id('orders', i),
            this.orderCode(i),
            this.id('customers', Math.min(sizes.customers - 1, Math.floor(customers * Math.sqrt(r())))),
            this.id('products', skewed(r, this.productsAt(t), 2)),
            status,
            weighted(r, S.CHANNELS),
            this.campaign(t, r),
            dateAt(t, r),
            r() < 0.55 ? null : this.text(r, t, 1 + Math.floor(r() * 3)),
          ];
        },
      },
      {
        name: 'tickets',
        create:
          'CREATE TABLE tickets (id INTEGER PRIMARY KEY, ticket_ref TEXT NOT NULL, order_id INTEGER REFERENCES orders(id), subject TEXT, body TEXT, agent TEXT, priority TEXT, opened_at TEXT)',
        columns: ['id', 'ticket_ref', 'order_id', 'subject', 'body', 'agent', 'priority', 'opened_at'],
        rows: sizes.tickets,
        row: (i) => {
          const t = i / sizes.tickets;
          const r = rngFor(seed, 5, i);
          let h = mix(i * 2654435761 + seed);
          let ref = 'TCK-';
          for (let k = 0; k < 6; k++, h = mix(h + k)) ref += BASE32[h % 32];
          ref += BASE32[i % 32] + BASE32[Math.floor(i / 32) % 32] + BASE32[Math.floor(i / 1024) % 32];
          ref += BASE32[Math.floor(i / 32768) % 32] + BASE32[Math.floor(i / 1048576) % 32];
          const subject = capital(this.fill(pick(r, S.TICKET_SUBJECTS), r, t));
          return [
            this.id('tickets', i),
            ref,
            this.id('orders', Math.min(sizes.orders - 1, Math.floor(sizes.orders * t * Math.sqrt(r())))),
            subject,
            this.text(r, t, 2 + Math.floor(r() * 5)),
            this.agent(t, r),
            weighted(r, S.PRIORITIES),
            dateAt(t, r),
          ];
        },
      },
    ];
  }
}
