import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqljsEngine } from '../../adapters/sqljs/engine';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { OFFICIAL_PAIRS, PAIRS_DB_SQL } from '../../test-support/official-pairs';
import { scoreAnswer, type Dataset, type TimedQuery } from './score-answer';

let engine: SqljsEngine;
const query: TimedQuery = (sql) => engine.query('pairs', sql, { maxRows: 10_000 });

beforeAll(async () => {
  engine = await createNodeEngine();
  await engine.open({ id: 'pairs', name: 'pairs.sqlite', bytes: await buildDb(PAIRS_DB_SQL) });
});
afterAll(() => engine.close('pairs'));

async function verdict(dataset: Dataset, gold: string, pred: string) {
  const outcome = await scoreAnswer({ dataset, goldSql: gold, predSql: pred, query });
  if (outcome.kind !== 'scored') throw new Error(outcome.reason);
  return outcome;
}

describe('the official verdicts on hand-made pairs', () => {
  it('has at least 40 pairs, both verdicts of each rule represented', () => {
    expect(OFFICIAL_PAIRS.length).toBeGreaterThanOrEqual(40);
    for (const rule of ['spider', 'bird'] as const)
      expect(new Set(OFFICIAL_PAIRS.map((p) => p[rule]))).toEqual(new Set([0, 1]));
    expect(OFFICIAL_PAIRS.filter((p) => p.spider !== p.bird).length).toBeGreaterThan(10);
  });

  it.each(OFFICIAL_PAIRS.map((p) => [p.what, p] as const))('%s', async (_, pair) => {
    const spider = await verdict('spider', pair.gold, pair.pred);
    const bird = await verdict('bird', pair.gold, pair.pred);
    expect({ spider: spider.ex, bird: bird.ex }).toEqual({ spider: pair.spider, bird: pair.bird });
    expect(bird.softF1).toBeCloseTo(pair.softF1, 5);
  });
});
