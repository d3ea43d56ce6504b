// Date columns get from the value read the statistics SQL gives over every row.
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import { columnStats } from '../schema/stats';
import { extractValues } from './distinct-values';
import { ValueIndexBuilder } from './value-index';

const SQL = `
CREATE TABLE e (label TEXT, day DATE, at TEXT, clock TEXT, mixed TEXT, few TEXT);
WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 2000)
INSERT INTO e SELECT 'event ' || n,
  CASE WHEN n % 13 = 0 THEN NULL ELSE date('2020-01-01', '+' || (n * 7 % 400) || ' days') END,
  datetime('2021-06-01 08:00:00', '+' || (n * 37) || ' minutes'),
  printf('%02d:%02d', n % 24, n % 60),
  CASE WHEN n % 2 = 0 THEN '2020-02-0' || (n % 9 + 1) ELSE 'pending' END,
  CASE n % 3 WHEN 0 THEN '2020-01-01' WHEN 1 THEN '2020-01-02' ELSE '2020-01-03T10:00Z' END
FROM c;
`;

describe('statistics of date columns from the value read', () => {
  it('equal SQL statistics over every row; a column mixing dates and words is left to SQL', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 'e', name: 'e.sqlite', bytes: await buildDb(SQL) });
    const exec = executorFor(engine, 'e');
    const scanning: SqlExecutor = { ...exec, scan: (sql, params, visit) => engine.scan('e', sql, params, visit) };
    const schema = await engine.introspect('e');
    for (const reader of [exec, scanning]) {
      const builder = new ValueIndexBuilder();
      await extractValues(reader, schema, builder, { pageSize: 700 });
      const read = builder.counted();
      for (const column of ['day', 'at', 'clock', 'few']) {
        const sql = await columnStats(exec, { table: 'e', column, rowCount: 2000, rowBudget: 1_000_000 });
        expect(read.columnStats('e', column), column).toEqual(sql);
      }
      expect(read.columnStats('e', 'few')?.categories).toHaveLength(3);
      expect(read.columnStats('e', 'day')?.looksLikeDate).toBe(true);
      expect(read.columnStats('e', 'clock')?.looksLikeDate).toBe(false);
      expect(read.columnStats('e', 'mixed')).toBeNull();
      const held = read.memoryBytes();
      read.forgetDates(); // the toolbox's statistics were taken: the dates are not kept
      expect([held > 0, read.memoryBytes(), read.columnStats('e', 'day')]).toEqual([true, 0, null]);
      builder.close();
    }
  });
});
