// Builds small databases in memory for tests, with plain sql.js (no engine involved).
import initSqlJs from 'sql.js';
import { mulberry32 } from '../core/random';

export async function buildDb(sql: string): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(sql);
  const bytes = db.export();
  db.close();
  return bytes;
}

export const SHOP_SQL = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, joined TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL, status TEXT);
INSERT INTO customers VALUES (1,'Ada','Paris','2024-01-02'),(2,'Bo',NULL,'2024-02-03'),(3,'Cy','Oslo','2024-03-04');
INSERT INTO orders VALUES (1,1,10.5,'paid'),(2,1,20,'paid'),(3,2,5.25,'open'),(4,3,NULL,'open');
CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 8;
`;

/**
 * A notes table of `rows` rows from a seeded generator: short values (authors, codes, tags,
 * repeated) and long texts of 20–60 words (some repeated, some with accents), for tests of the
 * value index's build paths.
 */
export function notesSql(rows: number, seed = 7): string {
  const next = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const syllables = ['mar', 'bel', 'ford', 'wick', 'ton', 'ash', 'lin', 'dra', 'vo', 'kes', 'pri', 'né', 'shaw'];
  const word = () => Array.from({ length: 2 + Math.floor(next() * 3) }, () => pick(syllables)).join('');
  const vocabulary = Array.from({ length: 400 }, word);
  const authors = Array.from({ length: 150 }, () => `${cap(pick(vocabulary))} ${cap(pick(vocabulary))}`);
  const texts: string[] = [];
  const lines = ['CREATE TABLE notes (id INTEGER PRIMARY KEY, author TEXT, code TEXT, tag TEXT, body TEXT);'];
  for (let i = 1; i <= rows; i++) {
    let body: string;
    if (texts.length > 0 && next() < 0.1) body = pick(texts);
    else {
      body = Array.from({ length: 20 + Math.floor(next() * 40) }, () => pick(vocabulary)).join(' ') + '.';
      texts.push(body);
    }
    const code = `N-${String(Math.floor(next() * 1e7)).padStart(7, '0')}`;
    const tag = next() < 0.2 ? 'NULL' : `'${pick(['open', 'closed', 'draft', 'Ünterwegs'])}'`;
    lines.push(`INSERT INTO notes VALUES (${i}, '${pick(authors)}', '${code}', ${tag}, '${body}');`);
  }
  return lines.join('\n');
}

function cap(w: string): string {
  return w[0].toUpperCase() + w.slice(1);
}
