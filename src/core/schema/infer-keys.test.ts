import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import type { JoinEdge } from '../retrieval/types';
import { assertSingleReadStatement } from '../sql/statements';
import type { Schema } from '../types';
import { findShortestPathTool } from '../tools/find-shortest-path';
import { containmentSql, inferForeignKeys, keyCandidates, uniquenessSql } from './infer-keys';
import { buildJoinGraph, shortestJoinPaths } from './join-graph';

const SQL = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, warehouse_id INTEGER, total REAL);
CREATE TABLE warehouses (id INTEGER PRIMARY KEY, city TEXT);
-- {table}_id style, but TEXT against an INTEGER key: types differ, never a candidate.
CREATE TABLE payments (id INTEGER PRIMARY KEY, customer_id TEXT, amount REAL);
-- Same name as the referenced primary key (Spider style).
CREATE TABLE stadium (Stadium_ID INTEGER PRIMARY KEY, Name TEXT);
CREATE TABLE concert (concert_ID INTEGER PRIMARY KEY, Stadium_ID INT, Year TEXT);
-- A bare table name as the column (Spider flight_2: flights.Airline -> airlines.uid).
CREATE TABLE airlines (uid INTEGER PRIMARY KEY, Airline TEXT);
CREATE TABLE flights (Airline INTEGER, FlightNo INTEGER, PRIMARY KEY (Airline, FlightNo));
-- Text keys: {table}{key name}.
CREATE TABLE countries (code TEXT PRIMARY KEY, name TEXT);
CREATE TABLE cities (id INTEGER PRIMARY KEY, country_code VARCHAR(3), name TEXT);
-- A self-reference.
CREATE TABLE categories (id INTEGER PRIMARY KEY, parent_id INTEGER, name TEXT);
-- Already declared: not inferred again.
CREATE TABLE items (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(id));
-- A UNIQUE column named like a key, and one that is not.
CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT UNIQUE, badge_code TEXT UNIQUE);
CREATE TABLE logins (id INTEGER PRIMARY KEY, email TEXT, badge_code TEXT);
-- A role in front of the name, snake or camel case, and as a self-reference.
CREATE TABLE addresses (address_id INTEGER PRIMARY KEY, city TEXT);
CREATE TABLE invoices (id INTEGER PRIMARY KEY, billing_address_id INTEGER, shipToAddressId INTEGER);
CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, manager_staff_id INTEGER);
-- Only NULLs: nothing to go on.
CREATE TABLE reviews (id INTEGER PRIMARY KEY, customer_id INTEGER);

INSERT INTO customers VALUES (1, 'Ada'), (2, 'Bo'), (3, 'Cy');
INSERT INTO warehouses VALUES (1, 'Oslo');
INSERT INTO orders VALUES (1, 1, 1, 10), (2, 2, 99, 20), (3, NULL, 1, 5);
INSERT INTO payments VALUES (1, '1', 10), (2, '2', 20);
INSERT INTO stadium VALUES (1, 'A'), (2, 'B');
INSERT INTO concert VALUES (1, 1, '2014'), (2, 2, '2015'), (3, 1, '2015');
INSERT INTO airlines VALUES (1, 'United'), (2, 'Delta');
INSERT INTO flights VALUES (1, 28), (2, 29), (2, 44);
INSERT INTO countries VALUES ('NOR', 'Norway'), ('ITA', 'Italy');
INSERT INTO cities VALUES (1, 'NOR', 'Oslo'), (2, 'ITA', 'Rome');
INSERT INTO categories VALUES (1, NULL, 'root'), (2, 1, 'child'), (3, 2, 'leaf');
INSERT INTO items VALUES (1, 1);
INSERT INTO users VALUES (1, 'a@x', 'B1'), (2, 'b@x', 'B2');
INSERT INTO logins VALUES (1, 'a@x', 'B1');
INSERT INTO reviews VALUES (1, NULL);
INSERT INTO addresses VALUES (1, 'Oslo'), (2, 'Rome');
INSERT INTO invoices VALUES (1, 1, 2), (2, 2, 2);
INSERT INTO staff VALUES (1, NULL), (2, 1);
`;

let engine: SqljsEngine;
let schema: Schema;
let exec: SqlExecutor;

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'k', name: 'k.sqlite', bytes: await buildDb(SQL) });
  schema = await engine.introspect('k');
  exec = executorFor(engine, 'k');
});
afterAll(() => engine.close('k'));

const edge = (fromTable: string, from: string, toTable: string, to: string): JoinEdge => ({
  fromTable,
  fromColumns: [from],
  toTable,
  toColumns: [to],
  inferred: true,
});
const label = (e: JoinEdge) => `${e.fromTable}.${e.fromColumns[0]} -> ${e.toTable}.${e.toColumns[0]}`;

describe('inferForeignKeys', () => {
  it('finds keys implied by names, types and contained values', async () => {
    const found = (await inferForeignKeys(schema, exec)).map(label).sort();
    expect(found).toEqual([
      'categories.parent_id -> categories.id',
      'cities.country_code -> countries.code',
      'concert.Stadium_ID -> stadium.Stadium_ID',
      'flights.Airline -> airlines.uid',
      'invoices.billing_address_id -> addresses.address_id',
      'invoices.shipToAddressId -> addresses.address_id',
      'logins.badge_code -> users.badge_code',
      'orders.customer_id -> customers.id',
      'staff.manager_staff_id -> staff.staff_id',
    ]);
  });

  it('refuses a candidate whose values are not all in the referenced key', async () => {
    expect(keyCandidates(schema).map((c) => label(c.edge))).toContain('orders.warehouse_id -> warehouses.id');
    expect((await inferForeignKeys(schema, exec)).map(label)).not.toContain('orders.warehouse_id -> warehouses.id');
  });

  it('refuses when the types differ, when there are only NULLs, and for id = id between primary keys', async () => {
    const candidates = keyCandidates(schema).map((c) => label(c.edge));
    expect(candidates).not.toContain('payments.customer_id -> customers.id');
    expect(candidates).not.toContain('customers.id -> warehouses.id');
    expect(candidates).not.toContain('logins.email -> users.email');
    expect(candidates).toContain('reviews.customer_id -> customers.id');
    expect((await inferForeignKeys(schema, exec)).map(label)).not.toContain('reviews.customer_id -> customers.id');
  });

  it('does not infer what the schema declares', () => {
    const candidates = keyCandidates(schema).map((c) => label(c.edge));
    expect(candidates.filter((c) => c.startsWith('items.order_id') || c.startsWith('orders.id -> items'))).toEqual([]);
  });

  it('marks every result inferred and the graph flags paths through them', async () => {
    const inferred = await inferForeignKeys(schema, exec);
    expect(inferred.length).toBeGreaterThan(0);
    expect(inferred.every((e) => e.inferred)).toBe(true);
    const r = shortestJoinPaths(buildJoinGraph(schema, inferred), 'flights', 'airlines');
    expect(r.ok && r.paths.map((p) => [p.joinClause, p.edges[0].inferred])).toEqual([
      ['FROM "flights" JOIN "airlines" ON "flights"."Airline" = "airlines"."uid"', true],
    ]);
  });

  it('sends only single read statements, bounded to a prefix of the rows', async () => {
    const seen: string[] = [];
    await inferForeignKeys(schema, { query: (sql, o) => (seen.push(sql), exec.query(sql, o)) }, { rowLimit: 2 });
    expect(seen.length).toBe(keyCandidates(schema).length);
    for (const sql of seen) {
      expect(() => assertSingleReadStatement(sql)).not.toThrow();
      expect(sql).toMatch(/LIMIT 2\) AS sample$/);
    }
    expect(containmentSql(edge('order "x"', 'a b', 'select', 'id'), 10)).toBe(
      'SELECT count(*) AS present, coalesce(sum(CASE WHEN v NOT IN (SELECT "id" FROM "select" WHERE "id" IS NOT NULL) THEN 1 ELSE 0 END), 0) AS missing FROM (SELECT "a b" AS v FROM "order ""x""" WHERE "a b" IS NOT NULL LIMIT 10) AS sample',
    );
  });

  it('checks at most maxChecks candidates, best first, and stops when cancelled', async () => {
    let queries = 0;
    const counting: SqlExecutor = { query: (sql, o) => (queries++, exec.query(sql, o)) };
    await inferForeignKeys(schema, counting, { maxChecks: 2 });
    expect(queries).toBe(2);
    const controller = new AbortController();
    controller.abort();
    await expect(inferForeignKeys(schema, exec, { signal: controller.signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
  });
});

// Files made by scripts: no PRIMARY KEY, no REFERENCES, no UNIQUE anywhere.
const UNDECLARED_SQL = `
CREATE TABLE course (course_id INTEGER, title TEXT, name TEXT, syllabus_code TEXT, tutor_id INTEGER);
CREATE TABLE pupil (id INTEGER, name TEXT);
CREATE TABLE enrolment (enrolment_id INTEGER, course_id INTEGER, pupil_id INTEGER, room_no INTEGER, grade TEXT);
-- Named like its key, but room_no repeats: no key.
CREATE TABLE room (room_no INTEGER, wing TEXT);
-- Unique, but course.tutor_id holds a value missing here.
CREATE TABLE tutor (tutor_id INTEGER, name TEXT);
-- A key-like name that points at no table, unique in both tables and repeated in course: only
-- course points at them (the side whose values repeat), not one at the other.
CREATE TABLE catalogue (syllabus_code TEXT, pages INTEGER);
CREATE TABLE textbook (syllabus_code TEXT, isbn TEXT);

INSERT INTO course VALUES (10, 'Algebra', 'Maths', 'S-1', 1), (11, 'Poetry', 'English', 'S-2', 2),
  (12, 'Geometry', 'Maths II', 'S-1', 7);
INSERT INTO pupil VALUES (1, 'Maths'), (2, 'English'), (3, 'Maths II'), (4, 'Ada');
INSERT INTO enrolment VALUES (100, 10, 1, 5, 'A'), (101, 10, 2, 5, 'B'), (102, 11, 2, 6, 'A'), (103, 12, 3, 6, NULL);
INSERT INTO room VALUES (5, 'north'), (5, 'south'), (6, 'east');
INSERT INTO tutor VALUES (1, 'Kim'), (2, 'Lee');
INSERT INTO catalogue VALUES ('S-1', 120), ('S-2', 80), ('S-3', 45);
INSERT INTO textbook VALUES ('S-1', '978-1'), ('S-2', '978-2'), ('S-3', '978-3');
`;

// Every table shares a prefix (zq); key names abbreviate the table's name (Acct, Pay, Br).
const PREFIXED_SQL = `
CREATE TABLE zqBranch (zqBrId INTEGER PRIMARY KEY, zqBrCity TEXT);
CREATE TABLE zqAccount (zqAcctId INTEGER, zqAcctBrId INTEGER, zqAcctName TEXT, zqParentId INTEGER);
CREATE TABLE zqPayment (zqPayId INTEGER, zqPayAcctId INTEGER, zqPayAmount REAL);
CREATE TABLE zqRefund (zqRefundId INTEGER, zqRefundPayId INTEGER, zqRefundAmount REAL);

INSERT INTO zqBranch VALUES (1, 'Oslo'), (2, 'Rome');
INSERT INTO zqAccount VALUES (7, 1, 'Ada', NULL), (8, 2, 'Bo', 7), (9, 2, 'Cy', 7);
INSERT INTO zqPayment VALUES (70, 7, 10), (71, 7, 20), (72, 9, 5), (73, 8, 1);
INSERT INTO zqRefund VALUES (1, 71, 20), (2, 72, 5);
`;

describe('inferForeignKeys without declared keys', () => {
  const dbs: Record<string, { schema: Schema; exec: SqlExecutor }> = {};

  beforeAll(async () => {
    for (const [id, sql] of [
      ['school', UNDECLARED_SQL],
      ['zq', PREFIXED_SQL],
    ]) {
      await engine.open({ id, name: `${id}.sqlite`, bytes: await buildDb(sql) });
      dbs[id] = { schema: await engine.introspect(id), exec: executorFor(engine, id) };
    }
  });
  afterAll(async () => {
    for (const id of Object.keys(dbs)) await engine.close(id);
  });

  const infer = async (id: string) => (await inferForeignKeys(dbs[id].schema, dbs[id].exec)).map(label).sort();
  const candidates = (id: string) => keyCandidates(dbs[id].schema).map((c) => label(c.edge));

  it('takes a column named like its table key, whose values are unique, as a key', async () => {
    expect(await infer('school')).toEqual([
      'course.syllabus_code -> catalogue.syllabus_code',
      'course.syllabus_code -> textbook.syllabus_code',
      'enrolment.course_id -> course.course_id',
      'enrolment.pupil_id -> pupil.id',
    ]);
  });

  it('refuses a target whose values repeat, and values not all contained', async () => {
    const found = await infer('school');
    expect(candidates('school')).toContain('enrolment.room_no -> room.room_no');
    expect(found).not.toContain('enrolment.room_no -> room.room_no');
    expect(candidates('school')).toContain('course.tutor_id -> tutor.tutor_id');
    expect(found).not.toContain('course.tutor_id -> tutor.tutor_id');
  });

  it('never pairs columns whose names are not keys, nor two same-name columns whose values are both unique', async () => {
    const all = candidates('school');
    expect(all.filter((c) => /\.(name|title) ->/.test(c))).toEqual([]);
    const between = keyCandidates(dbs.school.schema).filter((c) =>
      [
        'catalogue.syllabus_code -> textbook.syllabus_code',
        'textbook.syllabus_code -> catalogue.syllabus_code',
      ].includes(label(c.edge)),
    );
    expect(between.map((c) => [c.needsUniqueTarget, c.needsRepeatingSource])).toEqual([
      [true, true],
      [true, true],
    ]);
    expect((await infer('school')).filter((c) => c.startsWith('catalogue') || c.startsWith('textbook'))).toEqual([]);
  });

  it('reads names behind a prefix shared by the tables, with abbreviated table names', async () => {
    expect(await infer('zq')).toEqual([
      'zqAccount.zqAcctBrId -> zqBranch.zqBrId',
      'zqAccount.zqParentId -> zqAccount.zqAcctId',
      'zqPayment.zqPayAcctId -> zqAccount.zqAcctId',
      'zqRefund.zqRefundPayId -> zqPayment.zqPayId',
    ]);
    expect(candidates('zq').filter((c) => /Amount|Name|City/.test(c))).toEqual([]);
  });

  it('checks uniqueness once per column with a bounded single read statement', async () => {
    const seen: string[] = [];
    const { schema: s, exec: e } = dbs.school;
    await inferForeignKeys(s, { query: (sql, o) => (seen.push(sql), e.query(sql, o)) }, { rowLimit: 3 });
    const counts = seen.filter((q) => q.includes('count(DISTINCT'));
    expect(counts.length).toBeGreaterThan(0);
    expect(new Set(counts).size).toBe(counts.length);
    for (const sql of seen) {
      expect(() => assertSingleReadStatement(sql)).not.toThrow();
      expect(sql).toMatch(/LIMIT 3\) AS sample$/);
    }
    expect(uniquenessSql('order "x"', 'a b', 10)).toBe(
      'SELECT count(*) AS present, count(DISTINCT v) AS distinct_values FROM (SELECT "a b" AS v FROM "order ""x""" WHERE "a b" IS NOT NULL LIMIT 10) AS sample',
    );
  });

  it('gives find_shortest_path a path through the inferred keys', async () => {
    for (const [id, start, end, joins] of [
      ['school', 'enrolment.course_id', 'course.course_id', 1],
      ['school', 'pupil', 'catalogue', 3],
      ['zq', 'zqRefund', 'zqBranch', 3],
    ] as const) {
      const graph = buildJoinGraph(dbs[id].schema, await inferForeignKeys(dbs[id].schema, dbs[id].exec));
      const r = await findShortestPathTool.run({ start, end }, { graph });
      expect(r.ok && r.paths.length > 0 && r.paths[0].edges.length).toBe(joins);
      expect(findShortestPathTool.observe(r)).toContain('Inferred, not declared');
    }
  });
});
