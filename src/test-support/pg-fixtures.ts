// Databases on the throw-away cluster (pg-cluster.ts) for the PostgreSQL tests: `shop`, with the
// shapes that break naive code (mixed-case and spaced names, quotes, comments, composite and
// cross-schema keys, a view, a materialised view, bytea, bigints past 2^53, numerics with 20
// digits, NULLs), a read-only role, and table checksums to prove nothing changed.

import pg from 'pg';
import { databaseUrl, runSql, type Cluster } from '../../scripts/pg-cluster.mjs';

export const READER = { user: 'dowser_reader', password: 'reader-secret-9f3k2' };

const SHOP = `
CREATE SCHEMA sales;
CREATE TABLE customers (id serial PRIMARY KEY, name text NOT NULL, "City Name" text, email text UNIQUE, joined date);
COMMENT ON TABLE customers IS 'people who bought something';
COMMENT ON COLUMN customers."City Name" IS 'where they live';
CREATE TABLE "Order ""Items""" (order_id int, line int, customer_id int REFERENCES customers(id), amount numeric(12,2),
  big bigint, precise numeric, photo bytea, PRIMARY KEY (order_id, line));
CREATE INDEX items_amount ON "Order ""Items""" (amount);
CREATE TABLE sales.regions (code text PRIMARY KEY, label text);
CREATE TABLE t (id serial PRIMARY KEY, name text);
CREATE TABLE secret (v text);
CREATE VIEW big_orders AS SELECT * FROM "Order ""Items""" WHERE amount > 100;
CREATE MATERIALIZED VIEW totals AS SELECT customer_id, sum(amount) AS total FROM "Order ""Items""" GROUP BY 1;
CREATE FUNCTION p() RETURNS void LANGUAGE sql AS 'DELETE FROM t';
INSERT INTO customers (name, "City Name", email, joined)
  SELECT 'Customer ' || g, (ARRAY['Oslo', 'Lima', 'Pune', NULL])[1 + g % 4], 'c' || g || '@example.com', DATE '2024-01-01' + g
  FROM generate_series(1, 40) g;
INSERT INTO "Order ""Items"""
  SELECT g / 3, g % 3, 1 + g % 40, (g * 7.25)::numeric(12,2), 9007199254740993 + g, 12345678901234567890.5 + g, '\\x00ff'::bytea
  FROM generate_series(1, 300) g;
INSERT INTO sales.regions VALUES ('N', 'North'), ('S', 'South');
INSERT INTO t (name) SELECT 'row ' || g FROM generate_series(1, 5) g;
INSERT INTO secret VALUES ('do not change');
REFRESH MATERIALIZED VIEW totals;
ANALYZE customers;
CREATE ROLE ${READER.user} LOGIN PASSWORD '${READER.password}';
GRANT CONNECT ON DATABASE shop TO ${READER.user};
GRANT USAGE ON SCHEMA public, sales TO ${READER.user};
GRANT SELECT ON ALL TABLES IN SCHEMA public, sales TO ${READER.user};
`;

/** Creates `shop` (once per cluster) and returns the superuser's and the reader's URLs. */
export async function makeShop(cluster: Cluster): Promise<{ admin: string; reader: string }> {
  await runSql(cluster, 'CREATE DATABASE shop');
  await runSql(cluster, SHOP, 'shop');
  return { admin: databaseUrl(cluster, 'shop'), reader: `postgresql://${READER.user}@127.0.0.1:${cluster.port}/shop` };
}

/** Every table's rows as one checksum each, and the list of tables: changed rows or DDL show. */
export async function tableChecksums(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    );
    const out: Record<string, string> = {};
    for (const { name } of tables.rows as Array<{ name: string }>) {
      const r = await client.query(
        `SELECT count(*) || ':' || coalesce(md5(string_agg(x::text, ',' ORDER BY x::text)), '') AS sum FROM ${name} x`,
      );
      out[name] = (r.rows[0] as { sum: string }).sum;
    }
    const roles = await client.query(`SELECT string_agg(rolname || rolsuper, ',' ORDER BY rolname) AS r FROM pg_roles`);
    out['(roles)'] = (roles.rows[0] as { r: string }).r;
    return out;
  } finally {
    await client.end();
  }
}
