// Numeric columns read beside the text ones get the statistics SQL gives over every row.
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import { columnStats } from '../schema/stats';
import { extractValues } from './distinct-values';
import { DISTINCT_CAP, NumberColumnStats } from './number-stats';
import { ValueIndexBuilder } from './value-index';

const SQL = `
CREATE TABLE m (id INTEGER PRIMARY KEY, label TEXT, qty INTEGER, price REAL, flag INTEGER, odd INTEGER, big INTEGER, empty REAL);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000)
INSERT INTO m SELECT n, 'item ' || n,
  CASE WHEN n % 11 = 0 THEN NULL ELSE n % 7 END,
  CASE WHEN n = 5 THEN -0.0 WHEN n = 6 THEN 0.0 ELSE n * 1.25 END,
  CASE WHEN n % 3 = 0 THEN 0.5 ELSE n % 2 END,
  CASE WHEN n = 2999 THEN 'abc' ELSE n END,
  CASE WHEN n = 17 THEN 9007199254740993 ELSE n END,
  NULL
FROM c;
`;

describe('statistics of numeric columns from the value read', () => {
  it('equal SQL statistics over every row, and leave the rowid, text cells and integers past 2^53 to others', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 'm', name: 'm.sqlite', bytes: await buildDb(SQL) });
    const exec = executorFor(engine, 'm');
    const scanning: SqlExecutor = { ...exec, scan: (sql, params, visit) => engine.scan('m', sql, params, visit) };
    const schema = await engine.introspect('m');
    const builder = new ValueIndexBuilder();
    await extractValues(scanning, schema, builder, { pageSize: 1000 });
    const read = builder.counted();
    for (const column of ['qty', 'price', 'flag', 'empty']) {
      const sql = await columnStats(exec, { table: 'm', column, rowCount: 3000, rowBudget: 1_000_000 });
      expect(read.columnStats('m', column), column).toEqual(sql);
    }
    expect(read.columnStats('m', 'qty')?.categories).toHaveLength(7);
    expect(read.columnStats('m', 'flag')).toMatchObject({
      distinctCount: 3,
      storageClasses: { integer: 2000, real: 1000 },
    });
    expect(read.columnStats('m', 'odd')).toBeNull();
    expect(read.columnStats('m', 'id')).toBeNull(); // the rowid: its statistics come from the b-tree's ends
    expect(read.columnStats('m', 'big')).toBeNull();
    builder.close();
  });

  it('gives up past DISTINCT_CAP distinct values, and when the column was not read to the end', () => {
    const stats = new NumberColumnStats('t', 'c');
    for (let i = 0; i <= DISTINCT_CAP; i++) stats.addNumber(i, true);
    stats.done(DISTINCT_CAP + 1);
    expect(stats.result()).toBeNull();
    const partial = new NumberColumnStats('t', 'c');
    partial.addNumber(1, true);
    expect(partial.result()).toBeNull();
  });
});
