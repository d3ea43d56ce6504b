import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import type { Schema } from '../types';
import { explainEmptyAggregate, explainEmptyResult } from './sql-repair';
import { buildToolbox } from './toolbox';
import { unmark } from '../privacy/marks';

let engine: SqljsEngine;
let exec: SqlExecutor;
let schema: Schema;

beforeAll(async () => {
  engine = await createNodeEngine();
  const bytes = await buildDb(`
    CREATE TABLE baskets (id INTEGER PRIMARY KEY, store TEXT, left_behind TEXT);
    INSERT INTO baskets VALUES (1, 'north', 'no'), (2, 'north', 'no'), (3, 'north', 'no'), (4, 'south', 'yes');
    CREATE TABLE refunds (id INTEGER PRIMARY KEY, amount REAL);
    CREATE TABLE sales (id INTEGER PRIMARY KEY, sold_on TEXT, amount REAL);
    INSERT INTO sales VALUES (1, '2021-03-04', 5), (2, '2025-06-30', 7), (3, '2023-01-15', 2);
  `);
  await engine.open({ id: 'r', name: 'r.sqlite', bytes });
  exec = executorFor(engine, 'r');
  schema = await engine.introspect('r');
});
afterAll(() => engine.close('r'));

describe('explaining an empty result or a zero', () => {
  it("says a filter's value is stored when it is, instead of offering it as a correction", async () => {
    const values = (await buildToolbox(exec, schema)).values;
    const lines = await explainEmptyResult(
      exec,
      "SELECT id FROM baskets WHERE store = 'south' AND left_behind = 'no'",
      schema,
      values,
    );
    expect(unmark(lines.join('\n'))).toContain(
      '`store = \'south\'` keeps none of the 3 rows the rest of the query gives. "south" is stored in baskets.store: its rows are left out by the rest of the query (the joins or the other filters).',
    );
    expect(unmark(lines.join('\n'))).not.toContain('Values that exist: "south"');
  });

  it('says first that a zero can be right, and gives filter counts as facts, not as a way to drop a filter', async () => {
    const lines = await explainEmptyAggregate(
      exec,
      "SELECT count(*) FROM baskets WHERE store = 'north' AND left_behind = 'yes'",
      schema,
    );
    expect(lines[0]).toBe(
      'The aggregate ran over no rows at all. Its 0 or NULL can be the right answer. Facts to check the values and joins used:',
    );
    expect(lines).toContain("`left_behind = 'yes'` keeps none of the 3 rows the rest of the query gives.");
    expect(lines).toContain("`store = 'north'` keeps none of the 1 row the rest of the query gives.");
    expect(lines.join('\n')).not.toMatch(/without the filter/i);
  });

  it('says the same first of an empty result', async () => {
    const lines = await explainEmptyResult(exec, "SELECT id FROM baskets WHERE left_behind = 'maybe'", schema);
    expect(lines).toEqual([
      'No rows can be the right answer. Facts to check the values and joins used:',
      "`left_behind = 'maybe'` keeps none of the 4 rows the rest of the query gives.",
    ]);
  });

  it('says what a date or number filter could have found: the range the column holds', async () => {
    const lines = await explainEmptyResult(
      exec,
      "SELECT sum(amount) FROM sales WHERE sold_on >= '2012-01-01' AND sold_on < '2013-01-01' GROUP BY 1",
      schema,
    );
    expect(unmark(lines.at(-1)!)).toBe('sales.sold_on holds values from "2021-03-04" to "2025-06-30".');
    expect(lines.filter((l) => l.includes('holds values from'))).toHaveLength(1);
    const byYear = await explainEmptyResult(
      exec,
      "SELECT id FROM sales WHERE strftime('%Y', sold_on) = '2012'",
      schema,
    );
    expect(unmark(byYear.join('\n'))).toContain(
      '`strftime(\'%Y\', sold_on) = \'2012\'` keeps none of the 3 rows the rest of the query gives. sales.sold_on holds values from "2021-03-04" to "2025-06-30".',
    );
    // A text filter gets no range: its closest stored values say more.
    const text = await explainEmptyResult(exec, "SELECT id FROM baskets WHERE left_behind = 'maybe'", schema);
    expect(text.join('\n')).not.toContain('holds values from');
  });

  it('keeps only the first sentences when no fact follows', async () => {
    expect(await explainEmptyAggregate(exec, 'SELECT sum(amount) FROM refunds', schema)).toEqual([
      'The aggregate ran over no rows at all. Its 0 or NULL can be the right answer.',
    ]);
  });
});
