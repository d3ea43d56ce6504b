import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { pyCell, type PyRow } from './py-values';
import { scoreAnswer, type TimedQuery } from './score-answer';
import { keepsOtherTiedRows, tieProbe } from './ties';

const rows = (...rs: unknown[][]): PyRow[] => rs.map((r) => r.map((v) => pyCell(v as string | number)));

describe('tieProbe', () => {
  it('drops the LIMIT and selects the ORDER BY keys after the columns', () => {
    expect(tieProbe('SELECT grade FROM Highschooler GROUP BY grade ORDER BY count(*) DESC LIMIT 1')).toMatchObject({
      sql: 'SELECT grade, count(*) FROM Highschooler GROUP BY grade ORDER BY count(*) DESC',
      keys: 1,
      limit: 1,
    });
    expect(tieProbe('select a, b from t order by f(a, b) asc, b desc nulls last limit 3;')).toMatchObject({
      sql: 'select a, b, f(a, b), b from t order by f(a, b) asc, b desc nulls last',
      keys: 2,
      limit: 3,
    });
  });

  it('leaves alone what it cannot rewrite faithfully', () => {
    expect(tieProbe('SELECT a FROM t ORDER BY a')).toBeNull(); // no LIMIT
    expect(tieProbe('SELECT a FROM t ORDER BY 1 LIMIT 1')).toBeNull(); // a position
    expect(tieProbe('SELECT a FROM t ORDER BY a LIMIT 1 OFFSET 2')).toBeNull();
    expect(tieProbe('SELECT a FROM t UNION SELECT b FROM u ORDER BY a LIMIT 1')).toBeNull();
    // A subquery's ORDER BY and LIMIT are not the statement's.
    expect(tieProbe('SELECT a FROM t WHERE b IN (SELECT b FROM u ORDER BY c LIMIT 1)')).toBeNull();
  });
});

describe('keepsOtherTiedRows', () => {
  const probe = { keys: 1, limit: 1 };
  it('accepts another row tied with the kept one, and nothing else', () => {
    const probeRows = rows(['9', 4], ['10', 4], ['11', 3]);
    expect(keepsOtherTiedRows(probeRows, probe, rows(['10']), { orderMatters: true })).toBe(true);
    expect(keepsOtherTiedRows(probeRows, probe, rows(['11']), { orderMatters: true })).toBe(false);
    expect(keepsOtherTiedRows(probeRows, probe, rows(['10'], ['9']), { orderMatters: true })).toBe(false);
  });

  it('needs the rows before the tie in place, then tied rows in any order', () => {
    const probeRows = rows(['a', 9], ['b', 5], ['c', 5], ['d', 5], ['e', 1]);
    const three = { keys: 1, limit: 3 };
    expect(keepsOtherTiedRows(probeRows, three, rows(['a'], ['d'], ['b']), { orderMatters: true })).toBe(true);
    expect(keepsOtherTiedRows(probeRows, three, rows(['b'], ['a'], ['d']), { orderMatters: true })).toBe(false);
    expect(keepsOtherTiedRows(probeRows, three, rows(['a'], ['b'], ['e']), { orderMatters: true })).toBe(false);
  });

  it('says nothing when no row ties at the cut', () => {
    expect(keepsOtherTiedRows(rows(['9', 4], ['10', 3]), probe, rows(['10']), { orderMatters: true })).toBe(false);
  });
});

describe('scoring with ties', () => {
  it('scores another tied row 0 by Spider’s rule and marks it as a tie', async () => {
    const engine = await createNodeEngine();
    await engine.open({
      id: 'db',
      name: 'db',
      bytes: await buildDb(
        "CREATE TABLE h (name TEXT, grade INT); INSERT INTO h VALUES ('a', 9), ('b', 9), ('c', 10), ('d', 10), ('e', 11);",
      ),
    });
    const query: TimedQuery = (sql) => engine.query('db', sql);
    const gold = 'SELECT grade FROM h GROUP BY grade ORDER BY count(*) DESC LIMIT 1';
    const reference = (await query(gold, 1000)).rows[0][0];
    const other = reference === 9 ? 10 : 9;
    const tied = await scoreAnswer({ dataset: 'spider', goldSql: gold, predSql: `SELECT ${other}`, query });
    expect(tied).toMatchObject({ kind: 'scored', ex: 0, tiedAtLimit: true });
    const wrong = await scoreAnswer({ dataset: 'spider', goldSql: gold, predSql: 'SELECT 11', query });
    expect(wrong).toMatchObject({ kind: 'scored', ex: 0 });
    expect(wrong).not.toHaveProperty('tiedAtLimit');
    const right = await scoreAnswer({ dataset: 'spider', goldSql: gold, predSql: `SELECT ${reference}`, query });
    expect(right).toMatchObject({ ex: 1 });
    await engine.close('db');
  });
});
