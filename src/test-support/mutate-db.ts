// Damaged database files for fuzzing the open path (issue 11): a seeded stream of mutations of one
// small but varied database (tables, WITHOUT ROWID, indexes, a view, a trigger, fts4, overflow
// pages, blobs): byte flips, header fields, b-tree page types and cell pointers, truncation,
// zeroed, duplicated and swapped pages, garbage at the end, and damaged schema text.

import initSqlJs from 'sql.js';
import { mulberry32 } from '../core/random';

const PAGE = 1024;

export async function fuzzBaseDb(): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`PRAGMA page_size = ${PAGE}; VACUUM;`);
  db.run(`
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, note TEXT);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL, status TEXT);
    CREATE TABLE kv (k TEXT PRIMARY KEY, v BLOB) WITHOUT ROWID;
    CREATE INDEX orders_by_customer ON orders (customer_id, status);
    CREATE VIEW paid AS SELECT * FROM orders WHERE status = 'paid';
    CREATE TRIGGER t_ins AFTER INSERT ON orders BEGIN SELECT 1; END;
    CREATE VIRTUAL TABLE notes USING fts4 (body);
  `);
  const r = mulberry32(7);
  const word = () => ['alpha', 'beta', 'Paris', 'Oslo', 'paid', 'open', 'café', '東京'][Math.floor(r() * 8)];
  for (let i = 1; i <= 120; i++) {
    db.run('INSERT INTO customers VALUES (?, ?, ?, ?)', [
      i,
      `${word()} ${i}`,
      word(),
      i % 17 === 0 ? word().repeat(400) : null,
    ]);
    db.run('INSERT INTO orders VALUES (?, ?, ?, ?)', [i, 1 + (i % 40), Math.round(r() * 10000) / 100, word()]);
    if (i % 4 === 0)
      db.run('INSERT INTO kv VALUES (?, ?)', [`k${i}`, Uint8Array.from({ length: 50 + i }, (_, j) => (i * j) & 255)]);
    if (i % 3 === 0) db.run('INSERT INTO notes VALUES (?)', [`${word()} ${word()} ${word()}`]);
  }
  const bytes = db.export();
  db.close();
  return bytes;
}

export interface Mutant {
  name: string;
  bytes: Uint8Array;
}

type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);

const put16 = (b: Uint8Array, at: number, v: number) => {
  b[at] = (v >> 8) & 255;
  b[at + 1] = v & 255;
};
const put32 = (b: Uint8Array, at: number, v: number) => {
  put16(b, at, (v >>> 16) & 0xffff);
  put16(b, at + 2, v & 0xffff);
};

/** Offset of the b-tree header on page `p` (1-based): page 1 has the 100-byte file header first. */
const btree = (p: number) => (p - 1) * PAGE + (p === 1 ? 100 : 0);

const MUTATIONS: Array<[string, (b: Uint8Array, r: Rand) => Uint8Array]> = [
  [
    'flip-bytes',
    (b, r) => {
      for (let i = 0, n = 1 + int(r, 40); i < n; i++) b[int(r, b.length)] ^= 1 << int(r, 8);
      return b;
    },
  ],
  [
    'random-bytes-in-page',
    (b, r) => {
      const page = int(r, b.length / PAGE);
      for (let i = 0; i < 64; i++) b[page * PAGE + int(r, PAGE)] = int(r, 256);
      return b;
    },
  ],
  ['header-page-size', (b, r) => (put16(b, 16, [0, 1, 3, 512, 1000, 65535, 32768][int(r, 7)]), b)],
  ['header-page-count', (b, r) => (put32(b, 28, [0, 1, 3, 0xffffffff, int(r, 1 << 30)][int(r, 5)]), b)],
  ['header-schema-format', (b, r) => ((b[44 + 3] = [0, 5, 9, 255][int(r, 4)]), b)],
  ['header-encoding', (b, r) => ((b[56 + 3] = [0, 2, 3, 4, 200][int(r, 5)]), b)],
  ['header-reserved-space', (b, r) => ((b[20] = 1 + int(r, 255)), b)],
  ['header-freelist', (b, r) => (put32(b, 32, 1 + int(r, 5000)), put32(b, 36, int(r, 5000)), b)],
  [
    'btree-page-type',
    (b, r) => {
      const p = 1 + int(r, b.length / PAGE);
      b[btree(p)] = [0, 1, 2, 5, 10, 13, 255][int(r, 7)];
      return b;
    },
  ],
  ['btree-cell-count', (b, r) => (put16(b, btree(1 + int(r, b.length / PAGE)) + 3, int(r, 65536)), b)],
  [
    'btree-cell-pointer',
    (b, r) => {
      const p = 1 + int(r, b.length / PAGE);
      const header = b[btree(p)] === 2 || b[btree(p)] === 5 ? 12 : 8;
      put16(b, btree(p) + header + 2 * int(r, 4), int(r, 65536));
      return b;
    },
  ],
  ['btree-right-child', (b, r) => (put32(b, btree(1 + int(r, b.length / PAGE)) + 8, int(r, 10000)), b)],
  ['truncate', (b, r) => b.slice(0, int(r, b.length))],
  ['truncate-at-page', (b, r) => b.slice(0, PAGE * (1 + int(r, b.length / PAGE - 1)))],
  [
    'zero-page',
    (b, r) => {
      const page = int(r, b.length / PAGE);
      b.fill(0, page * PAGE + (page === 0 ? 100 : 0), (page + 1) * PAGE);
      return b;
    },
  ],
  [
    'duplicate-page',
    (b, r) => {
      const from = int(r, b.length / PAGE);
      const to = 1 + int(r, b.length / PAGE - 1);
      b.copyWithin(to * PAGE, from * PAGE + (from === 0 ? 100 : 0), (from + 1) * PAGE);
      return b;
    },
  ],
  [
    'swap-pages',
    (b, r) => {
      const n = b.length / PAGE;
      const x = 1 + int(r, n - 1);
      const y = 1 + int(r, n - 1);
      const tmp = b.slice(x * PAGE, (x + 1) * PAGE);
      b.copyWithin(x * PAGE, y * PAGE, (y + 1) * PAGE);
      b.set(tmp, y * PAGE);
      return b;
    },
  ],
  [
    'append-garbage',
    (b, r) => {
      const out = new Uint8Array(b.length + 1 + int(r, 3 * PAGE));
      out.set(b);
      for (let i = b.length; i < out.length; i++) out[i] = int(r, 256);
      return out;
    },
  ],
  [
    'schema-text',
    (b, r) => {
      // Damage the CREATE statements stored in sqlite_schema (page 1 and the pages after it).
      const text = new TextDecoder('latin1').decode(b.subarray(0, Math.min(b.length, 4 * PAGE)));
      const spots = [...text.matchAll(/CREATE|TABLE|INDEX|VIEW|TRIGGER|USING|REFERENCES|\(|\)|,/g)].map(
        (m) => m.index!,
      );
      for (let i = 0, n = 1 + int(r, 4); i < n && spots.length; i++)
        b[spots[int(r, spots.length)] + int(r, 3)] = [0x20, 0x28, 0x22, 0x00, 0x3b, 0x41][int(r, 6)];
      return b;
    },
  ],
  ['wal-flags', (b, r) => ((b[18] = [0, 2, 3, 9][int(r, 4)]), (b[19] = [0, 2, 3, 9][int(r, 4)]), b)],
];

/** `count` damaged copies of `base`, each one to three mutations, the same for the same seed. */
export function mutants(base: Uint8Array, count: number, seed = 0x11): Mutant[] {
  const r = mulberry32(seed);
  const out: Mutant[] = [];
  for (let i = 0; i < count; i++) {
    let bytes: Uint8Array = base.slice();
    const names: string[] = [];
    // Every mutation at least once, in order, then random ones stacked.
    const first = MUTATIONS[i % MUTATIONS.length];
    const steps =
      i < MUTATIONS.length ? [first] : Array.from({ length: 1 + int(r, 3) }, () => MUTATIONS[int(r, MUTATIONS.length)]);
    for (const [name, mutate] of steps) {
      bytes = mutate(bytes, r);
      names.push(name);
    }
    out.push({ name: `${String(i).padStart(3, '0')}-${names.join('+')}`, bytes });
  }
  return out;
}
