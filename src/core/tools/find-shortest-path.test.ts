import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { inferForeignKeys } from '../schema/infer-keys';
import { buildJoinGraph, type FindPathResult, type JoinGraph } from '../schema/join-graph';
import { findShortestPathTool } from './find-shortest-path';

const run = (graph: JoinGraph, start: string, end: string) => findShortestPathTool.run({ start, end }, { graph });

function paths(result: FindPathResult) {
  if (!result.ok) throw new Error(result.message);
  return result.paths;
}

describe('find_shortest_path contract', () => {
  it('takes {start, end} as non-empty strings', () => {
    expect(findShortestPathTool.name).toBe('find_shortest_path');
    expect(findShortestPathTool.input.safeParse({ start: 'a', end: 'b.c' }).success).toBe(true);
    expect(findShortestPathTool.input.safeParse({ start: '', end: 'b' }).success).toBe(false);
    expect(findShortestPathTool.input.safeParse({ start: 'a' }).success).toBe(false);
    expect(findShortestPathTool.input.safeParse({ start: 'a', end: 3 }).success).toBe(false);
  });
});

describe('find_shortest_path on a small shop', () => {
  let engine: SqljsEngine;
  let graph: JoinGraph;

  beforeAll(async () => {
    engine = await createNodeEngine();
    const bytes = await buildDb(`
      CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE addresses (id INTEGER PRIMARY KEY, city TEXT);
      CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER,
        billing_address_id INTEGER REFERENCES addresses(id), shipping_address_id INTEGER REFERENCES addresses(id));
      CREATE TABLE employees (id INTEGER PRIMARY KEY, manager_id INTEGER REFERENCES employees(id));
      CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
      INSERT INTO customers VALUES (1, 'Ada'), (2, 'Bo');
      INSERT INTO addresses VALUES (1, 'Oslo');
      INSERT INTO orders VALUES (1, 1, 1, 1), (2, 2, 1, NULL);
    `);
    await engine.open({ id: 'shop', name: 'shop.sqlite', bytes });
    const schema = await engine.introspect('shop');
    graph = buildJoinGraph(schema, await inferForeignKeys(schema, executorFor(engine, 'shop')));
  });
  afterAll(() => engine.close('shop'));

  it('lists every equally short path with its JOIN clause and flags inferred keys', async () => {
    const text = findShortestPathTool.observe(await run(graph, 'customers.name', 'addresses'));
    expect(text).toBe(
      [
        '2 equally short join paths from customers.name to addresses (2 joins each):',
        '1. customers -> orders -> addresses',
        '   FROM "customers" JOIN "orders" ON "orders"."customer_id" = "customers"."id" JOIN "addresses" ON "orders"."billing_address_id" = "addresses"."id"',
        '   Inferred, not declared (check it): orders.customer_id = customers.id',
        '2. customers -> orders -> addresses',
        '   FROM "customers" JOIN "orders" ON "orders"."customer_id" = "customers"."id" JOIN "addresses" ON "orders"."shipping_address_id" = "addresses"."id"',
        '   Inferred, not declared (check it): orders.customer_id = customers.id',
      ].join('\n'),
    );
  });

  it('says so when no join is needed, and mentions self-joins', async () => {
    expect(findShortestPathTool.observe(await run(graph, 'employees.id', 'employees'))).toBe(
      [
        'employees.id and employees are in the same table: no join needed.',
        '   FROM "employees"',
        'employees is also joinable to itself via employees.manager_id = employees.id: FROM "employees" JOIN "employees" AS "employees_2" ON "employees"."manager_id" = "employees_2"."id"',
      ].join('\n'),
    );
  });

  it('explains a missing path and unknown names instead of failing', async () => {
    expect(findShortestPathTool.observe(await run(graph, 'notes', 'orders'))).toMatch(
      /^No join path between notes and orders: .*notes has no keys/,
    );
    expect(findShortestPathTool.observe(await run(graph, 'order', 'customer'))).toBe(
      'Unknown table "order". Did you mean: orders?',
    );
  });

  it('counts the paths it does not show', async () => {
    const wide = await buildDb(
      `CREATE TABLE a (id INTEGER PRIMARY KEY); CREATE TABLE b (${Array.from({ length: 7 }, (_, i) => `k${i} INTEGER REFERENCES a(id)`).join(', ')});`,
    );
    await engine.open({ id: 'wide', name: 'wide.sqlite', bytes: wide });
    const g = buildJoinGraph(await engine.introspect('wide'));
    await engine.close('wide');
    const result = await run(g, 'a', 'b');
    expect(result.ok && [result.paths.length, result.totalPaths]).toEqual([5, 7]);
    expect(findShortestPathTool.observe(result)).toMatch(
      /^7 equally short join paths .*\n… 2 more equally short paths not shown\.$/s,
    );
  });
});

describe('find_shortest_path on src/test-fixtures/tricky.sqlite', () => {
  let engine: SqljsEngine;
  let graph: JoinGraph;

  beforeAll(async () => {
    engine = await createNodeEngine();
    await engine.open({
      id: 'tricky',
      name: 'tricky.sqlite',
      bytes: readFileSync(new URL('../../test-fixtures/tricky.sqlite', import.meta.url)),
    });
    const schema = await engine.introspect('tricky');
    graph = buildJoinGraph(schema, await inferForeignKeys(schema, executorFor(engine, 'tricky')));
  });
  afterAll(() => engine.close('tricky'));

  /** Every returned clause must run on the file. */
  async function expectRuns(result: FindPathResult): Promise<void> {
    for (const p of [...paths(result), ...(result.ok ? result.selfJoins : [])]) {
      await expect(engine.query('tricky', `SELECT count(*) ${p.joinClause}`), p.joinClause).resolves.toBeDefined();
    }
  }

  it('joins the composite key onto "order details" and on to the keyword table "select"', async () => {
    const result = await run(graph, 'shipments.carrier', '"select"."from"');
    expect(paths(result).map((p) => p.joinClause)).toEqual([
      'FROM "shipments" JOIN "order details" ON "shipments"."order_id" = "order details"."order id" AND "shipments"."line_no" = "order details"."line no"' +
        ' JOIN "select" ON "order details"."order id" = "select"."order"',
    ]);
    await expectRuns(result);
  });

  it('gives both directions between departments and staff, and staff mentoring as a self-join', async () => {
    const result = await run(graph, 'departments', 'staff');
    expect(paths(result).map((p) => p.joinClause)).toEqual([
      'FROM "departments" JOIN "staff" ON "departments"."head_staff_id" = "staff"."id"',
      'FROM "departments" JOIN "staff" ON "staff"."department_id" = "departments"."id"',
    ]);
    expect(result.ok && result.selfJoins.map((p) => p.joinClause)).toEqual([
      'FROM "staff" JOIN "staff" AS "staff_2" ON "staff"."mentor_id" = "staff_2"."id"',
    ]);
    await expectRuns(result);
    await expectRuns(await run(graph, 'attachments.filename', 'departments.name'));
    await expectRuns(await run(graph, '"group"."by"', 'shipments'));
  });

  it('reads names with quotes, unicode and mixed case', async () => {
    expect(await run(graph, '"we""ird"."col""quote"', 'WE"IRD.dot.ted')).toMatchObject({
      ok: true,
      start: { table: 'we"ird', column: 'col"quote' },
      end: { table: 'we"ird', column: 'dot.ted' },
    });
    expect(await run(graph, 'mixedcase.displayname', 'café.prix €')).toMatchObject({
      ok: true,
      start: { table: 'MixedCase', column: 'DisplayName' },
      paths: [],
    });
    expect(findShortestPathTool.observe(await run(graph, 'café', '日本.人口'))).toMatch(
      /^No join path between "café" and "日本": /,
    );
    expect(findShortestPathTool.observe(await run(graph, 'cafe', 'staff'))).toBe(
      'Unknown table cafe. Did you mean: "café"?',
    );
  });
});
