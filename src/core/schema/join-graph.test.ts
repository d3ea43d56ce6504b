import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import type { JoinEdge } from '../retrieval/types';
import type { Schema } from '../types';
import {
  buildJoinGraph,
  type FindPathResult,
  type JoinGraph,
  type PathsFound,
  renderJoinClause,
  shortestJoinPaths,
} from './join-graph';

const SQL = `
-- Keys in both directions between two tables, and a self-reference.
CREATE TABLE departments (id INTEGER PRIMARY KEY, name TEXT, head_staff_id INTEGER REFERENCES staff(id));
CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT, department_id INTEGER REFERENCES departments(id), mentor_id INTEGER REFERENCES staff(id));
-- Two parallel keys between the same tables.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE addresses (id INTEGER PRIMARY KEY, city TEXT);
CREATE TABLE orders (
  id INTEGER PRIMARY KEY, total REAL,
  customer_id INTEGER REFERENCES customers(id),
  billing_address_id INTEGER REFERENCES addresses(id),
  shipping_address_id INTEGER REFERENCES addresses(id)
);
-- A composite key, three hops from customers.
CREATE TABLE lines (order_id INTEGER REFERENCES orders(id), line_no INTEGER, qty INTEGER, PRIMARY KEY (order_id, line_no));
CREATE TABLE shipments (id INTEGER PRIMARY KEY, order_id INTEGER, line_no INTEGER, FOREIGN KEY (order_id, line_no) REFERENCES lines(order_id, line_no));
-- No keys at all.
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT);
-- Names that need quoting: spaces, keywords, an embedded quote, unicode.
CREATE TABLE "select" ("from" INTEGER PRIMARY KEY, "we""ird" TEXT);
CREATE TABLE "order details" ("order id" INTEGER REFERENCES orders(id), "unit price" REAL, "select from" INTEGER REFERENCES "select"("from"));
CREATE TABLE "größe 表" ("from" INTEGER REFERENCES "select"("from"), "名前" TEXT);
-- A key to a table that does not exist: unusable, and no reason to fail.
CREATE TABLE dangling (x INTEGER REFERENCES nowhere(id));

INSERT INTO departments VALUES (1, 'R&D', 1);
INSERT INTO staff VALUES (1, 'Ada', 1, NULL), (2, 'Bo', 1, 1);
INSERT INTO customers VALUES (1, 'Cy');
INSERT INTO addresses VALUES (1, 'Oslo'), (2, 'Rome');
INSERT INTO orders VALUES (1, 9.5, 1, 1, 2);
INSERT INTO lines VALUES (1, 1, 3);
INSERT INTO shipments VALUES (1, 1, 1);
INSERT INTO "order details" VALUES (1, 2.5, 7);
INSERT INTO "select" VALUES (7, 'x');
INSERT INTO "größe 表" VALUES (7, 'n');
`;

let engine: SqljsEngine;
let schema: Schema;
let graph: JoinGraph;

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'g', name: 'g.sqlite', bytes: await buildDb(SQL) });
  schema = await engine.introspect('g');
  graph = buildJoinGraph(schema);
});
afterAll(() => engine.close('g'));

function found(result: FindPathResult): PathsFound {
  if (!result.ok) throw new Error(`expected paths, got: ${result.message}`);
  return result;
}

const paths = (start: string, end: string, maxPaths?: number) =>
  found(shortestJoinPaths(graph, start, end, { maxPaths }));

/** Every clause must run on the database it was built for. */
async function runs(joinClause: string): Promise<number> {
  const r = await engine.query('g', `SELECT count(*) ${joinClause}`);
  return Number(r.rows[0][0]);
}

describe('shortestJoinPaths', () => {
  it('writes ON as {child}.{from} = {parent}.{to}, whichever way the path walks the key', async () => {
    const forward = paths('staff', 'departments');
    const backward = paths('departments', 'staff');
    expect(forward.paths.map((p) => p.joinClause)).toEqual([
      'FROM "staff" JOIN "departments" ON "departments"."head_staff_id" = "staff"."id"',
      'FROM "staff" JOIN "departments" ON "staff"."department_id" = "departments"."id"',
    ]);
    expect(backward.paths.map((p) => p.joinClause)).toEqual([
      'FROM "departments" JOIN "staff" ON "departments"."head_staff_id" = "staff"."id"',
      'FROM "departments" JOIN "staff" ON "staff"."department_id" = "departments"."id"',
    ]);
    for (const p of [...forward.paths, ...backward.paths]) expect(await runs(p.joinClause)).toBeGreaterThan(0);
  });

  it('joins a composite key on every column pair', async () => {
    const r = paths('shipments', 'lines');
    expect(r.paths).toHaveLength(1);
    expect(r.paths[0].joinClause).toBe(
      'FROM "shipments" JOIN "lines" ON "shipments"."order_id" = "lines"."order_id" AND "shipments"."line_no" = "lines"."line_no"',
    );
    expect(await runs(r.paths[0].joinClause)).toBe(1);
  });

  it('gives two paths for two parallel keys between the same tables', async () => {
    const r = paths('orders', 'addresses');
    expect(r.totalPaths).toBe(2);
    expect(r.paths.map((p) => p.edges[0].fromColumns[0])).toEqual(['billing_address_id', 'shipping_address_id']);
    expect(r.paths.every((p) => p.tables.join() === 'orders,addresses')).toBe(true);
    for (const p of r.paths) expect(await runs(p.joinClause)).toBe(1);
    // ... and they multiply along a longer path; maxPaths caps the list, not the count.
    const capped = paths('customers', 'addresses', 1);
    expect(capped.totalPaths).toBe(2);
    expect(capped.paths).toHaveLength(1);
  });

  it('puts first the path on the key a column endpoint names', () => {
    const first = (start: string, end: string) => paths(start, end).paths[0].edges[0].fromColumns[0];
    expect(first('orders.shipping_address_id', 'addresses')).toBe('shipping_address_id');
    expect(first('addresses.id', 'orders.shipping_address_id')).toBe('shipping_address_id');
    expect(first('orders.billing_address_id', 'addresses.city')).toBe('billing_address_id');
    expect(first('departments.id', 'staff.department_id')).toBe('department_id');
    expect(first('departments', 'staff')).toBe('head_staff_id');
  });

  it('finds a three-hop path and writes its whole JOIN chain', async () => {
    const r = paths('shipments', 'customers');
    expect(r.paths).toHaveLength(1);
    expect(r.paths[0].tables).toEqual(['shipments', 'lines', 'orders', 'customers']);
    expect(r.paths[0].joinClause).toBe(
      'FROM "shipments" JOIN "lines" ON "shipments"."order_id" = "lines"."order_id" AND "shipments"."line_no" = "lines"."line_no"' +
        ' JOIN "orders" ON "lines"."order_id" = "orders"."id" JOIN "customers" ON "orders"."customer_id" = "customers"."id"',
    );
    expect(await runs(r.paths[0].joinClause)).toBe(1);
  });

  it('returns the single table (no join) for two columns of one table, and lists its self-joins', async () => {
    const r = paths('staff.name', 'STAFF.mentor_id');
    expect(r.paths).toEqual([{ tables: ['staff'], edges: [], joinClause: 'FROM "staff"' }]);
    expect(r.selfJoins.map((p) => p.joinClause)).toEqual([
      'FROM "staff" JOIN "staff" AS "staff_2" ON "staff"."mentor_id" = "staff_2"."id"',
    ]);
    expect(await runs(r.selfJoins[0].joinClause)).toBe(1);
  });

  it('aliases a table that appears twice in a path', () => {
    const self: JoinEdge = {
      fromTable: 'staff',
      fromColumns: ['mentor_id'],
      toTable: 'staff',
      toColumns: ['id'],
      inferred: false,
    };
    const dept: JoinEdge = {
      fromTable: 'staff',
      fromColumns: ['department_id'],
      toTable: 'departments',
      toColumns: ['id'],
      inferred: false,
    };
    expect(renderJoinClause(['departments', 'staff', 'staff'], [dept, self])).toBe(
      'FROM "departments" JOIN "staff" ON "staff"."department_id" = "departments"."id" JOIN "staff" AS "staff_2" ON "staff"."mentor_id" = "staff_2"."id"',
    );
  });

  it('says clearly when no chain of keys connects two tables (a result, not an exception)', () => {
    const r = paths('notes', 'tags');
    expect(r.paths).toEqual([]);
    expect(r.totalPaths).toBe(0);
    expect(r.message).toMatch(/^No join path between notes and tags: .*notes has no keys to other tables/);
    expect(paths('notes', 'customers').message).toMatch(/customers has keys only to tables not connected/);
  });

  it('reads quoted names with spaces, quotes, keywords and unicode, and quotes them again in SQL', async () => {
    const expected = ['größe 表', 'select', 'order details', 'orders'];
    for (const [start, end] of [
      ['"größe 表"."名前"', '"orders"."total"'],
      ['[größe 表].名前', 'orders'],
      ['`größe 表`.`from`', 'main.orders.total'],
      ['größe 表.from', 'ORDERS'],
    ]) {
      const r = paths(start, end);
      expect(
        r.paths.map((p) => p.tables),
        `${start} -> ${end}`,
      ).toEqual([expected]);
    }
    const r = paths('"größe 表"."名前"', 'order details.unit price');
    expect(r.start).toEqual({ table: 'größe 表', column: '名前' });
    expect(r.end).toEqual({ table: 'order details', column: 'unit price' });
    expect(r.paths[0].joinClause).toBe(
      'FROM "größe 表" JOIN "select" ON "größe 表"."from" = "select"."from" JOIN "order details" ON "order details"."select from" = "select"."from"',
    );
    expect(await runs(r.paths[0].joinClause)).toBe(1);
    expect(paths('"select"."we""ird"', 'select').start).toEqual({ table: 'select', column: 'we"ird' });
  });

  it('matches names case-insensitively and answers with the schema spelling', () => {
    const r = paths('ORDERS.Customer_ID', 'Customers');
    expect(r.start).toEqual({ table: 'orders', column: 'customer_id' });
    expect(r.end).toEqual({ table: 'customers', column: null });
    expect(r.paths[0].joinClause).toBe('FROM "orders" JOIN "customers" ON "orders"."customer_id" = "customers"."id"');
  });

  it('suggests the closest names for an unknown table or column', () => {
    expect(shortestJoinPaths(graph, 'custmers', 'orders')).toEqual({
      ok: false,
      message: 'Unknown table custmers.',
      suggestions: ['customers'],
    });
    const column = shortestJoinPaths(graph, 'orders.totl', 'customers');
    expect(column).toMatchObject({ ok: false, message: 'Table orders has no column totl.' });
    expect(!column.ok && column.suggestions[0]).toBe('orders.total');
    // A bare column name points at the tables that have it.
    const bare = shortestJoinPaths(graph, 'customers', 'billing_address_id');
    expect(bare).toMatchObject({
      ok: false,
      message: 'Unknown table billing_address_id.',
      suggestions: ['orders.billing_address_id'],
    });
    const quoted = shortestJoinPaths(graph, '"order detail"."unit price"', 'orders');
    expect(!quoted.ok && quoted.suggestions[0]).toBe('"order details"."unit price"');
    expect(shortestJoinPaths(graph, '  ', 'orders')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Empty endpoint/),
    });
  });

  it('leaves out keys to missing tables', () => {
    expect(graph.edges.some((e) => e.toTable === 'nowhere')).toBe(false);
    expect(paths('dangling', 'orders').paths).toEqual([]);
  });
});

describe('inferred keys in the graph', () => {
  const inferred = (fromTable: string, from: string, toTable: string, to: string): JoinEdge => ({
    fromTable,
    fromColumns: [from],
    toTable,
    toColumns: [to],
    inferred: true,
  });

  it('uses inferred keys, flags them, and drops ones the schema already declares', () => {
    const g = buildJoinGraph(schema, [
      inferred('shipments', 'order_id', 'orders', 'id'),
      inferred('orders', 'customer_id', 'customers', 'id'),
      inferred('customers', 'id', 'orders', 'customer_id'),
    ]);
    expect(g.edges.filter((e) => e.inferred)).toEqual([inferred('shipments', 'order_id', 'orders', 'id')]);
    const r = found(shortestJoinPaths(g, 'shipments', 'orders'));
    expect(r.paths).toHaveLength(1);
    expect(r.paths[0].edges[0].inferred).toBe(true);
    expect(r.paths[0].joinClause).toBe('FROM "shipments" JOIN "orders" ON "shipments"."order_id" = "orders"."id"');
  });

  it('puts paths on declared keys before equally short ones on inferred keys', () => {
    const g = buildJoinGraph(schema, [inferred('ORDERS', 'TOTAL', 'addresses', 'ID')]);
    const r = found(shortestJoinPaths(g, 'orders', 'addresses'));
    expect(r.paths.map((p) => [p.edges[0].fromColumns[0], p.edges[0].inferred])).toEqual([
      ['billing_address_id', false],
      ['shipping_address_id', false],
      ['total', true],
    ]);
  });

  it('answers the same way every time', () => {
    const a = shortestJoinPaths(graph, 'customers', 'addresses');
    for (let i = 0; i < 5; i++) expect(shortestJoinPaths(buildJoinGraph(schema), 'customers', 'addresses')).toEqual(a);
  });
});
