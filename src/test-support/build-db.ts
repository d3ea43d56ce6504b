// Builds small databases in memory for tests, with plain sql.js (no engine involved).
import initSqlJs from 'sql.js';

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
