import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { PAIRS_DB_SQL } from '../../test-support/official-pairs';
import { classifyMiss, type MissClass } from './miss-class';
import { pyRows } from './py-values';

let engine: SqljsEngine;
const COLUMNS = new Set(['id', 'name', 'country', 'age', 'net_worth', 'city', 'singer_id', 'year', 'venue']);

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'm', name: 'm.sqlite', bytes: await buildDb(PAIRS_DB_SQL) });
});
afterAll(() => engine.close('m'));

async function classify(dataset: 'spider' | 'bird', gold: string, pred: string | null): Promise<MissClass> {
  const goldRows = pyRows(await engine.query('m', gold));
  let predRows = null;
  if (pred !== null) {
    try {
      predRows = pyRows(await engine.query('m', pred));
    } catch {
      predRows = null;
    }
  }
  return classifyMiss({
    dataset,
    goldSql: gold,
    predSql: pred,
    goldRows,
    predRows,
    orderMatters: /order by/i.test(gold),
    columns: COLUMNS,
  });
}

describe('why an answer is wrong', () => {
  it.each([
    ['no SQL at all', 'SELECT name FROM singer', null, 'no_answer'],
    ['SQL that fails', 'SELECT name FROM singer', 'SELECT nme FROM singer', 'sql_error'],
    [
      'the reference returns nothing',
      'SELECT name FROM singer WHERE age > 99',
      'SELECT name FROM singer',
      'empty_gold',
    ],
    ['an extra column', 'SELECT name FROM singer', 'SELECT name, age FROM singer', 'format'],
    [
      'other case',
      'SELECT country FROM singer WHERE id = 1',
      'SELECT upper(country) FROM singer WHERE id = 1',
      'format',
    ],
    ['rounding', 'SELECT avg(net_worth) FROM singer', 'SELECT round(avg(net_worth), 4) FROM singer', 'format'],
    [
      'the top one against all tied for the top',
      'SELECT name FROM singer WHERE age = (SELECT max(age) FROM singer WHERE age < 50)',
      'SELECT name FROM singer ORDER BY age < 50 DESC, age DESC LIMIT 1',
      'ambiguous',
    ],
    [
      'another filter value',
      "SELECT name FROM singer WHERE country = 'USA'",
      "SELECT name FROM singer WHERE country = 'China'",
      'filtered_column',
    ],
    [
      'another filter column',
      'SELECT name FROM singer WHERE age > 40',
      'SELECT name FROM singer WHERE id > 40',
      'filtered_column',
    ],
    [
      'another selected column',
      "SELECT name FROM singer WHERE country = 'USA'",
      "SELECT city FROM singer WHERE country = 'USA'",
      'selected_column',
    ],
    [
      'same columns, other logic',
      "SELECT count(id) FROM singer WHERE country = 'USA'",
      "SELECT sum(id) FROM singer WHERE country = 'USA'",
      'reasoning',
    ],
  ] as const)('%s', async (_, gold, pred, expected) => {
    expect(await classify('spider', gold, pred)).toBe(expected);
  });
});
