// The PostgreSQL engine against a real server (a throw-away cluster; CI installs PostgreSQL).
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DowserError } from '../../core/errors';
import { unmark } from '../../core/privacy/marks';
import { POSTGRES_ATTACKS } from '../../core/dialect/postgres/attacks';
import { pgSkipReason, usePgCluster } from '../../test-support/pg-cluster';
import { makeShop, READER, tableChecksums } from '../../test-support/pg-fixtures';
import { PostgresEngine } from './engine';
import { ServerSession } from './session';
import { clientConfig } from './target';

const env = {} as Record<string, string | undefined>;

async function failure(p: Promise<unknown>): Promise<DowserError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DowserError) return e;
    throw e;
  }
  throw new Error('did not fail');
}

describe.skipIf(pgSkipReason)('PostgresEngine on a real server', () => {
  const cluster = usePgCluster();
  let urls: { admin: string; reader: string };
  const engine = new PostgresEngine();

  beforeAll(async () => {
    urls = await makeShop(cluster.get());
    await engine.connect({ id: 'admin', target: { url: urls.admin, env } });
    await engine.connect({
      id: 'reader',
      target: { url: urls.reader, passwordEnv: 'SHOP_PW', env: { SHOP_PW: READER.password } },
    });
  }, 60_000);
  afterAll(() => engine.closeAll());

  it('says when the role is a superuser, and not for a read-only role', async () => {
    const admin = await engine.check('admin');
    expect(admin.server).toMatchObject({ dialect: 'postgres', superuser: true, canWrite: true, schemas: ['public'] });
    expect(admin.issues.map((i) => i.code)).toEqual(['superuser']);
    expect(admin.name).toBe(`${cluster.get().user}@127.0.0.1:${cluster.get().port}/shop`);
    expect(JSON.stringify(admin)).not.toContain(cluster.get().password);
    const reader = await engine.check('reader');
    expect(reader.server).toMatchObject({ superuser: false, canWrite: false });
    expect(reader.issues).toEqual([]);
  });

  it('returns values typed as Dowser keeps them, capped and paged', async () => {
    const r = await engine.query(
      'admin',
      `SELECT order_id, amount, big, precise, photo, amount > 100 AS large, NULL::text AS nothing
         FROM "Order ""Items""" ORDER BY order_id, line`,
      { maxRows: 2, offset: 1 },
    );
    expect(r.columns).toEqual(['order_id', 'amount', 'big', 'precise', 'photo', 'large', 'nothing']);
    expect(r.rows[0]).toEqual([
      0,
      14.5,
      9007199254740995n,
      '12345678901234567892.5',
      new Uint8Array([0, 255]),
      'false',
      null,
    ]);
    expect(r.truncated).toBe(true);
    expect(r.offset).toBe(1);
    expect(r.columnTypes[2]).toEqual(['integer']);
    const params = await engine.query('admin', 'SELECT name FROM customers WHERE id = $1', { params: [3] });
    expect(params.rows).toEqual([['Customer 3']]);
  });

  it('cuts long cells and stops rows at the byte budget', async () => {
    const r = await engine.query('admin', `SELECT repeat('x', 5000) FROM generate_series(1, 100)`, {
      maxCellChars: 100,
      maxResultBytes: 2_000,
    });
    expect(r.cut?.[0]).toEqual({ row: 0, column: 0, length: 5000 });
    expect(r.rows[0][0]).toHaveLength(100);
    expect(r.byteLimit).toBe(2_000);
    expect(r.rows.length).toBeLessThan(100);
    const whole = await engine.wholeValue('admin', `SELECT repeat('y', 300000)`, { row: 0, column: 0 });
    expect(whole).toMatchObject({ length: 300000, cut: false });
  });

  it('reads tables, views, keys, indexes and comments of every schema on the search path', async () => {
    const schema = await engine.introspect('admin');
    const names = schema.tables.map((t) => `${t.kind}:${t.name}`);
    expect(names).toEqual(
      expect.arrayContaining(['table:customers', 'table:Order "Items"', 'view:big_orders', 'view:totals']),
    );
    expect(names).not.toContain('table:regions'); // not on the search path
    const customers = schema.tables.find((t) => t.name === 'customers')!;
    expect(customers.comment).toBe('people who bought something');
    expect(customers.columns.find((c) => c.name === 'City Name')?.comment).toBe('where they live');
    expect(customers.rowCount).toBe(40);
    expect(customers.indexes.map((i) => i.origin).sort()).toEqual(['pk', 'u']);
    const items = schema.tables.find((t) => t.name === 'Order "Items"')!;
    expect(items.primaryKey).toEqual(['order_id', 'line']);
    expect(items.columns.map((c) => c.affinity)).toEqual([
      'INTEGER',
      'INTEGER',
      'INTEGER',
      'NUMERIC',
      'INTEGER',
      'NUMERIC',
      'BLOB',
    ]);
    expect(schema.foreignKeys).toEqual([
      expect.objectContaining({ table: 'Order "Items"', from: ['customer_id'], refTable: 'customers', to: ['id'] }),
    ]);
    expect(items.indexes.find((i) => i.name === 'items_amount')).toMatchObject({ origin: 'c', columns: ['amount'] });

    await engine.connect({ id: 'two', target: { url: urls.admin, schemas: ['sales', 'public'], env } });
    const both = await engine.introspect('two');
    expect(both.tables[0].name).toBe('regions');
    expect((await engine.query('two', 'SELECT label FROM regions ORDER BY 1')).rows).toEqual([['North'], ['South']]);
    await engine.close('two');
  });

  it('takes statistics from pg_stats where analysed, and from the rows otherwise', async () => {
    const city = await engine.columnStats('admin', 'customers', 'City Name');
    expect(city).toMatchObject({ nullCount: 10, distinctCount: 3, approximate: false });
    expect(city.categories?.map((c) => c.value).sort()).toEqual(['Lima', 'Oslo', 'Pune']);
    const joined = await engine.columnStats('admin', 'customers', 'joined');
    expect(joined).toMatchObject({ looksLikeDate: true, min: '2024-01-02', max: '2024-02-10' });
    const amount = await engine.columnStats('admin', 'Order "Items"', 'amount'); // never analysed
    expect(amount).toMatchObject({ rowsScanned: 300, nullCount: 0, distinctCount: 300, min: 7.25, max: 2175 });
  });

  it('gives the server hint and the position of an error', async () => {
    const e = await failure(engine.query('admin', 'SELECT nme\nFROM customers'));
    expect(e.code).toBe('sql_error');
    expect(e.message).toContain('column "nme" does not exist');
    expect(e.detail).toContain('Perhaps you meant to reference the column "customers.name"');
    expect(e.message).toContain('(at line 1, column 8)');
  });

  it('stops a statement at the time limit, and on Stop, and goes on working', async () => {
    engine.queryTimeoutMs = 300;
    const slow = await failure(engine.query('admin', 'SELECT count(*) FROM generate_series(1, 1e9::bigint)'));
    expect(slow.code).toBe('timeout');
    engine.queryTimeoutMs = 60_000;
    const running = failure(engine.query('admin', 'SELECT count(*) FROM generate_series(1, 1e9::bigint)'));
    // Stop until it stops: on a loaded machine the statement may not have started at the first try
    // (a Stop with nothing of ours running does nothing).
    let settled = false;
    void running.finally(() => (settled = true));
    while (!settled) {
      await new Promise((r) => setTimeout(r, 100));
      await engine.cancel();
    }
    expect((await running).code).toBe('cancelled');
    expect((await engine.query('admin', 'SELECT 1')).rows).toEqual([[1]]);
    engine.queryTimeoutMs = 10_000;
  });

  it('refuses every statement of the adversarial corpus as a superuser, and changes nothing', async () => {
    const before = await tableChecksums(urls.admin);
    for (const sql of POSTGRES_ATTACKS) {
      const e = await failure(engine.query('admin', sql));
      expect(['read_only', 'multiple_statements', 'sql_error'], sql).toContain(e.code);
    }
    expect(await tableChecksums(urls.admin)).toEqual(before);
    for (const file of ['/tmp/dowser-copy-out', '/tmp/dowser-pwned', '/tmp/dowser-lo'])
      expect(existsSync(file)).toBe(false);
  });

  it('has the server refuse writes even without the gate: the transaction is read-only, one statement runs', async () => {
    const before = await tableChecksums(urls.admin);
    const session = new ServerSession(clientConfig({ url: urls.admin, env }), null);
    await session.connect();
    const writes = [
      'INSERT INTO t VALUES (99, $$x$$)',
      'UPDATE t SET name = $$y$$',
      'DELETE FROM t',
      'TRUNCATE t',
      'DROP TABLE secret',
      'CREATE TABLE made (a int)',
      'SELECT * INTO made FROM t',
      'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d',
      'SELECT p()',
      "SELECT nextval('t_id_seq')",
      'CREATE ROLE intruder SUPERUSER',
    ];
    try {
      for (const sql of writes) {
        const e = await failure(session.read(5_000, (run) => run.cursor(sql, [], 10)));
        expect(e.code, sql).toBe('read_only');
      }
      const two = await failure(session.read(5_000, (run) => run.cursor('SELECT 1; DELETE FROM t', [], 10)));
      expect(two.message).toContain('cannot insert multiple commands');
    } finally {
      await session.close();
    }
    expect(await tableChecksums(urls.admin)).toEqual(before);
  });

  it('builds the retrieval tools on the server: values, keys, statistics, repair hints', async () => {
    const summary = await engine.buildTools('admin');
    expect(summary.valuesIndexed).toBeGreaterThan(40);
    expect(summary.columnsIndexed).toBeGreaterThan(10);
    // What the model reads, without the privacy gate's marks around values.
    const seen = async (name: string, args: unknown) =>
      unmark((await engine.callTool('admin', name, args)).observation);
    expect(await seen('search_value', { query: 'osloo' })).toContain('"Oslo" in customers."City Name"');
    expect(await seen('find_shortest_path', { start: 'customers', end: 'Order "Items"' })).toContain('JOIN');
    expect(await seen('execute_sql', { sql: 'SELECT nme FROM customers' })).toContain(
      'Perhaps you meant to reference the column "customers.name"',
    );
    expect(await seen('execute_sql', { sql: `SELECT id FROM customers WHERE "City Name" = 'Osl'` })).toContain(
      'keeps none of the 40 rows',
    );
    // A text column compared with an integer: PostgreSQL refuses what SQLite's affinity converted.
    expect(await seen('execute_sql', { sql: 'SELECT id FROM customers WHERE "City Name" = id' })).toContain(
      "One side is text and the other integer: cast one to the other's type, e.g. col::integer",
    );
    const grounding = await engine.grounding('admin');
    expect(grounding.stats.find((s) => s.column === 'City Name')?.categories?.length).toBe(3);
    // numeric(12,2) holds 29.00 and 7.25 alike: one class, not SQLite's "mixed storage".
    expect(Object.keys(grounding.stats.find((s) => s.column === 'amount')?.storageClasses ?? {})).toEqual(['real']);
    const links = await engine.linkQuestion('admin', 'customers in oslo');
    expect(links.some((l) => l.kind === 'value')).toBe(true);
  });

  it('answers a question asked while the indexes are built from the server’s statistics and names', async () => {
    await engine.connect({ id: 'early', target: { url: urls.admin, env } });
    const grounding = await engine.grounding('early', { waitMs: 0 });
    expect(grounding.inferredKeys).toEqual([]);
    expect(grounding.stats.find((s) => s.table === 'customers' && s.column === 'City Name')).toMatchObject({
      nullCount: 10,
    });
    const links = await engine.linkQuestion('early', 'customers', { waitMs: 0 });
    expect(links.map((l) => l.kind)).toContain('exact');
    // The build goes on, and a later call without a limit gets the whole toolbox.
    expect((await engine.linkQuestion('early', 'customers in oslo')).some((l) => l.kind === 'value')).toBe(true);
    await engine.close('early');
  });
});
