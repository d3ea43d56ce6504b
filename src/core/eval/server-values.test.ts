import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../types';
import { scoreAnswer, serverValues } from './score-answer';

const result = (rows: QueryResult['rows'], columnKinds?: QueryResult['columnKinds']): QueryResult => ({
  columns: rows[0]?.map((_, j) => `c${j}`) ?? [],
  columnTypes: [],
  rows,
  truncated: false,
  offset: 0,
  elapsedMs: 0,
  ...(columnKinds ? { columnKinds } : {}),
});

describe('a server result compared as SQLite gives it', () => {
  it('reads numbers kept as text as doubles and booleans as 1 and 0, and leaves text and SQLite results alone', () => {
    const r = serverValues(
      result([['3.3333333333333333', 'true', '007', null]], ['number', 'boolean', 'text', 'number']),
    );
    expect(r.rows).toEqual([[3.3333333333333335, 1, '007', null]]);
    const sqlite = result([['3.5', 'true']]);
    expect(serverValues(sqlite)).toBe(sqlite);
  });

  it('scores an answer asked on a server against the reference run on the SQLite file', async () => {
    const asked: string[] = [];
    const outcome = await scoreAnswer({
      dataset: 'spider',
      goldSql: 'SELECT avg(age) FROM singer',
      predSql: 'SELECT avg(age) FROM singer',
      query: async (sql) => (asked.push(`server: ${sql}`), result([['34.5000000000000000']], ['number'])),
      goldQuery: async (sql) => (asked.push(`file: ${sql}`), result([[34.5]])),
    });
    expect(outcome).toMatchObject({ kind: 'scored', ex: 1 });
    expect(asked.map((a) => a.split(':')[0])).toEqual(['file', 'server']);
  });
});
