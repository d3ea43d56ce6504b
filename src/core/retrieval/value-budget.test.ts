// The value index's memory budget (issue 26): over it, each table is indexed from its first
// rows, in proportion to its size; the tools and the summary say which columns, and statistics
// of those columns come from SQL (first rows, approximate) instead of the partial read.

import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import type { TableInfo } from '../types';
import { parseCellBudget, valueRowLimits } from './distinct-values';

const table = (name: string, rowCount: number, textColumns: number): TableInfo =>
  ({
    name,
    kind: 'table',
    rowCount,
    columns: Array.from({ length: textColumns }, (_, i) => ({ name: `c${i}`, affinity: 'TEXT' })),
  }) as unknown as TableInfo;

describe('valueRowLimits', () => {
  it('reads everything under the budget, and shares it by cells over it', () => {
    const tables = [table('big', 1_000_000, 2), table('small', 1_000, 1)];
    expect(valueRowLimits(tables, 3_000_000).size).toBe(0);
    const limits = valueRowLimits(tables, 1_000_000);
    // 2,001,000 cells for 1,000,000: each table about half its rows.
    expect(limits.get('big')).toBe(499_750);
    expect(limits.get('small')).toBe(499);
  });

  it('parses DOWSER_INDEX_CELLS', () => {
    expect(parseCellBudget(undefined)).toEqual({});
    expect(parseCellBudget('none')).toEqual({ budget: null });
    expect(parseCellBudget('5_000_000')).toEqual({ budget: 5_000_000 });
    expect(parseCellBudget('-3').problem).toContain('DOWSER_INDEX_CELLS must be');
    expect(parseCellBudget('1e9').problem).toBeDefined();
  });
});

describe('a build over the budget', () => {
  it('keeps new values from the first rows and counts the rest; says which columns lost values; statistics from SQL for them', async () => {
    const engine = await createNodeEngine();
    await engine.open({
      id: 'b',
      name: 'b.sqlite',
      bytes: await buildDb(`CREATE TABLE visits (id INTEGER PRIMARY KEY, city TEXT, kind TEXT);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO visits SELECT i, CASE WHEN i > 900 THEN 'Quito' ELSE 'Lima' END,
          CASE i % 2 WHEN 0 THEN 'walk' ELSE 'bus' END FROM n;`),
    });
    // 2,000 text cells for 1,000: new values are kept from the first 500 rows, then only counted.
    const summary = await engine.buildTools('b', { valueCellBudget: 1000 });
    expect(summary.valuePolicies).toEqual([
      expect.objectContaining({
        table: 'visits',
        column: 'city',
        policy: 'partial',
        note: expect.stringContaining('100 of its 1,000 rows hold values that are not indexed'),
      }),
    ]);
    // Every value of a column seen in the first rows: counted over every row, nothing left out.
    const kind = await engine.callTool('b', 'search_value', { query: 'walk', column: 'kind' });
    expect(kind.observation).toMatch(/walk\W{0,3} in visits\.kind \(500 rows\)/);
    const found = await engine.callTool('b', 'search_value', { query: 'Quito', column: 'city' });
    expect(found.observation).toContain('100 rows of visits.city hold values that are not indexed');
    // Found anyway: the rows after the kept ones are searched with LIKE, and the hit says so.
    expect(found.observation).toMatch(
      /Quito\W{0,3} in visits\.city \(100 rows; contains it, found in the rows not indexed\)/,
    );
    expect(found.observation).toContain('up to 1000000 rows from the first of them on were searched with LIKE');
    // LIKE's own characters in a query are matched as themselves.
    const pct = await engine.callTool('b', 'search_value', { query: 'Qu%o', column: 'city' });
    expect(pct.observation).not.toMatch(/Quito\W{0,3} in visits/);
    const city = (await engine.grounding('b')).stats.find((s) => s.column === 'city')!;
    expect(city.rowsScanned).toBe(1000); // from SQL, as the column lost values
    const whole = await engine.buildTools('b', { valueCellBudget: null });
    expect(whole.valuePolicies).toEqual([]);
    expect((await engine.callTool('b', 'search_value', { query: 'Quito', column: 'city' })).observation).toContain(
      'Quito',
    );
  });
});
