// One suite, two transports: the in-process engine (CLI, Node) and the same engine behind
// Comlink in a worker thread (the protocol the browser's Web Worker speaks).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbEngine, OpenRequest } from '../../core/engine';
import { DowserError } from '../../core/errors';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { RestartableEngine } from '../../worker/db-client';
import { spawnNodeDbWorker } from '../../worker/node/spawn';
import { createNodeEngine } from './node';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The in-process engine reading every database from its file as needed (issue 26): the same
 * bytes are written to a file and opened by path with `read: 'file'`.
 */
async function fileReadingEngine(): Promise<DbEngine> {
  const engine = await createNodeEngine();
  const dir = mkdtempSync(join(tmpdir(), 'dowser-contract-'));
  let n = 0;
  return Object.assign(Object.create(engine) as DbEngine, {
    open: (request: OpenRequest, onProgress?: (fraction: number) => void) => {
      if (!(request.bytes instanceof Uint8Array)) return engine.open(request, onProgress);
      const path = join(dir, `${++n}.sqlite`);
      writeFileSync(path, request.bytes);
      return engine.open({ ...request, bytes: { path }, read: 'file' }, onProgress);
    },
  });
}

const transports: Array<[string, () => Promise<DbEngine & { dispose?: () => void }>]> = [
  ['in-process', createNodeEngine],
  ['worker', async () => new RestartableEngine(spawnNodeDbWorker)],
  ['in-process, read from the file', fileReadingEngine],
];

describe.each(transports)('DbEngine over %s transport', (_name, make) => {
  let engine: DbEngine & { dispose?: () => void };
  let bytes: Uint8Array;

  beforeAll(async () => {
    engine = await make();
    bytes = await buildDb(SHOP_SQL);
    await engine.open({ id: 'shop', name: 'shop.sqlite', bytes });
  });
  afterAll(() => engine.dispose?.());

  it('runs a read query with column types, row cap and offset', async () => {
    const r = await engine.query('shop', 'SELECT id, name, city FROM customers ORDER BY id', { maxRows: 2 });
    expect(r.columns).toEqual(['id', 'name', 'city']);
    expect(r.rows).toEqual([
      [1, 'Ada', 'Paris'],
      [2, 'Bo', null],
    ]);
    expect(r.truncated).toBe(true);
    expect(r.columnTypes[0]).toEqual(['integer']);
    const next = await engine.query('shop', 'SELECT id FROM customers ORDER BY id', { maxRows: 2, offset: 2 });
    expect(next.rows).toEqual([[3]]);
    expect(next.truncated).toBe(false);
  });

  it('binds parameters', async () => {
    const r = await engine.query('shop', 'SELECT name FROM customers WHERE city = ?', { params: ['Oslo'] });
    expect(r.rows).toEqual([['Cy']]);
  });

  it('keeps typed error codes across the transport', async () => {
    await expect(engine.query('shop', 'DELETE FROM orders')).rejects.toMatchObject({ code: 'read_only' });
    await expect(engine.query('shop', 'SELECT nope FROM orders')).rejects.toMatchObject({
      code: 'sql_error',
      message: expect.stringContaining('no such column: nope'),
    });
    await expect(engine.query('missing', 'SELECT 1')).rejects.toBeInstanceOf(DowserError);
  });

  it('introspects tables, views and foreign keys', async () => {
    const s = await engine.introspect('shop');
    expect(s.tables.map((t) => [t.name, t.kind, t.rowCount])).toEqual([
      ['customers', 'table', 3],
      ['orders', 'table', 4],
      ['big_orders', 'view', 2],
    ]);
    expect(s.foreignKeys).toEqual([
      expect.objectContaining({ table: 'orders', from: ['customer_id'], refTable: 'customers', to: ['id'] }),
    ]);
  });

  it('computes column statistics', async () => {
    const st = await engine.columnStats('shop', 'orders', 'status');
    expect(st).toMatchObject({ nullCount: 0, distinctCount: 2, approximate: false });
    expect(st.categories).toEqual([
      { value: 'open', count: 2 },
      { value: 'paid', count: 2 },
    ]);
  });

  it('opens a Blob (a File) read where the engine runs', async () => {
    const report = await engine.open({ id: 'blob', name: 'shop.sqlite', bytes: new Blob([bytes.slice()]) });
    expect(report.sizeBytes).toBe(bytes.length);
    const r = await engine.query('blob', 'SELECT count(*) FROM customers');
    expect(r.rows).toEqual([[3]]);
    await engine.close('blob');
  });

  it('reports a clean integrity check and leaves the bytes untouched', async () => {
    const before = bytes.slice();
    const report = await engine.check('shop');
    expect(report.quickCheck).toEqual(['ok']);
    expect(report.issues).toEqual([]);
    expect(bytes).toEqual(before);
  });
});

describe.each(transports)('result bounds over %s transport', (_name, make) => {
  let engine: DbEngine & { dispose?: () => void };
  beforeAll(async () => {
    engine = await make();
    const bytes = await buildDb(
      "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT, data BLOB); INSERT INTO t VALUES (1, 'short', x'00'), (2, printf('%.*c', 300000, 'x') || '😀', zeroblob(250000));",
    );
    await engine.open({ id: 'big', name: 'big.sqlite', bytes });
  });
  afterAll(() => engine.dispose?.());

  it('cuts long cells and reports their full length', async () => {
    const r = await engine.query('big', 'SELECT id, body, data FROM t ORDER BY id');
    expect(r.rows[0]).toEqual([1, 'short', new Uint8Array([0])]);
    expect((r.rows[1][1] as string).length).toBe(100_000);
    expect((r.rows[1][2] as Uint8Array).length).toBe(100_000);
    expect(r.cut).toEqual([
      { row: 1, column: 1, length: 300_002 },
      { row: 1, column: 2, length: 250_000 },
    ]);
    expect(r.byteLimit).toBeUndefined();
  });

  it('printf of 100 million characters and a 200 MB group_concat come back cut, not whole', async () => {
    const printf = await engine.query('big', "SELECT printf('%.*c', 100000000, 'x') AS v");
    expect(printf.cut).toEqual([{ row: 0, column: 0, length: 100_000_000 }]);
    expect((printf.rows[0][0] as string).length).toBe(100_000);
    const concat = await engine.query(
      'big',
      "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) SELECT group_concat(printf('%.*c', 100000, 'y'), '') FROM c",
    );
    expect(concat.cut).toEqual([{ row: 0, column: 0, length: 200_000_000 }]);
  });

  it('stops rows at the byte budget and says so', async () => {
    const r = await engine.query(
      'big',
      "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 500) SELECT i, printf('%.*c', 10000, 'z') FROM c",
      { maxResultBytes: 1_000_000 },
    );
    expect(r.truncated).toBe(true);
    expect(r.byteLimit).toBe(1_000_000);
    expect(r.rows.length).toBeGreaterThan(40);
    expect(r.rows.length).toBeLessThan(60);
  });

  it('fetches one value whole, the other cells of its row left out', async () => {
    const whole = await engine.wholeValue('big', 'SELECT id, body, data FROM t ORDER BY id', { row: 1, column: 1 });
    expect(whole).toMatchObject({ length: 300_002, cut: false });
    expect((whole.value as string).endsWith('x😀')).toBe(true);
    const blob = await engine.wholeValue('big', 'SELECT data FROM t WHERE id = ?', { row: 0, column: 0, params: [2] });
    expect((blob.value as Uint8Array).length).toBe(250_000);
    await expect(engine.wholeValue('big', 'SELECT body FROM t', { row: 5, column: 0 })).rejects.toMatchObject({
      code: 'sql_error',
    });
    await expect(engine.wholeValue('big', 'DELETE FROM t', { row: 0, column: 0 })).rejects.toMatchObject({
      code: 'read_only',
    });
  });
});

describe.each(transports)('64-bit integers over %s transport', (_name, make) => {
  it('keep every digit and the integer/real distinction', async () => {
    const engine = await make();
    const bytes = await buildDb(
      'CREATE TABLE t (id INTEGER, x REAL); INSERT INTO t VALUES (9007199254740993, 2.0), (42, 2.5);',
    );
    await engine.open({ id: 'big', name: 'big.sqlite', bytes });
    const r = await engine.query('big', 'SELECT id, x FROM t ORDER BY rowid');
    expect(r.rows).toEqual([
      [9007199254740993n, 2],
      [42, 2.5],
    ]);
    expect(r.columnTypes).toEqual([['integer'], ['real']]);
    const bound = await engine.query('big', 'SELECT count(*) FROM t WHERE id = ?', { params: [9007199254740993n] });
    expect(bound.rows).toEqual([[1]]);
    engine.dispose?.();
  });
});

describe.each(transports)('column descriptions over %s transport', (_name, make) => {
  const search = async (engine: DbEngine, query: string) => {
    const out = await engine.callTool('shop', 'search_column', { query, k: 3 });
    if (!out.ok) throw new Error(out.observation);
    return {
      top: (out.output as { hits: Array<{ table: string; column: string }> }).hits.map((h) => `${h.table}.${h.column}`),
      observation: out.observation,
    };
  };

  it('a Map of descriptions reaches the indexes, changes search_column, and survives a worker restart', async () => {
    const engine = await make();
    await engine.open({ id: 'shop', name: 'shop.sqlite', bytes: await buildDb(SHOP_SQL) });
    const built = await engine.buildTools('shop');
    expect(built.columnsDescribed).toBe(0);
    expect((await search(engine, 'delivery stage of the parcel')).top[0]).not.toBe('orders.status');

    // Structured clone carries nested Maps across Comlink (keys in lower case, as descriptionOf reads them).
    const summary = await engine.setDescriptions(
      'shop',
      new Map([['orders', new Map([['status', 'the delivery stage of the parcel']])]]),
    );
    expect(summary.columnsDescribed).toBe(1);
    expect(summary.valuesIndexed).toBe(built.valuesIndexed);
    expect(summary.columnSentences).toContain(
      'a column named status in table orders, about the delivery stage of the parcel, with values like open, paid',
    );
    const found = await search(engine, 'delivery stage of the parcel');
    expect(found.top[0]).toBe('orders.status');
    expect(found.observation).toContain(
      '1. orders.status (TEXT; match 100%) — about "the delivery stage of the parcel"',
    );

    // A restarted worker rebuilds from scratch with the descriptions it was last given.
    const restartable = engine as DbEngine & { cancel?: () => Promise<void> };
    if (restartable.cancel) {
      await restartable.cancel();
      expect((await search(engine, 'delivery stage of the parcel')).top[0]).toBe('orders.status');
    }
    const cleared = await engine.setDescriptions('shop', new Map());
    expect(cleared.columnsDescribed).toBe(0);
    expect((await search(engine, 'delivery stage of the parcel')).observation).not.toContain('about');
    (engine as { dispose?: () => void }).dispose?.();
  });

  it('builds the indexes when none exist yet', async () => {
    const engine = await make();
    await engine.open({ id: 'shop', name: 'shop.sqlite', bytes: await buildDb(SHOP_SQL) });
    const summary = await engine.setDescriptions('shop', new Map([['customers', new Map([['city', 'home town']])]]));
    expect(summary.columnsDescribed).toBe(1);
    expect((await search(engine, 'home town')).top[0]).toBe('customers.city');
    (engine as { dispose?: () => void }).dispose?.();
  });
});
