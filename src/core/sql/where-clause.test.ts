import { describe, expect, it } from 'vitest';
import { topLevelWhere } from './where-clause';

describe('topLevelWhere', () => {
  it('splits top-level AND predicates and rebuilds the query without one', () => {
    const w = topLevelWhere("SELECT * FROM t WHERE a = 1 AND b LIKE 'x%' AND c > 2 ORDER BY a LIMIT 5")!;
    expect(w.predicates).toEqual(['a = 1', "b LIKE 'x%'", 'c > 2']);
    expect(w.without(1)).toBe('SELECT * FROM t WHERE a = 1 AND c > 2 ORDER BY a LIMIT 5');
  });
  it('keeps BETWEEN, CASE, subqueries and strings whole', () => {
    const w = topLevelWhere(
      "SELECT * FROM t WHERE x BETWEEN 1 AND 5 AND y IN (SELECT y FROM u WHERE p AND q) AND z = 'a AND b' AND CASE WHEN a AND b THEN 1 END = 1",
    )!;
    expect(w.predicates).toEqual([
      'x BETWEEN 1 AND 5',
      'y IN (SELECT y FROM u WHERE p AND q)',
      "z = 'a AND b'",
      'CASE WHEN a AND b THEN 1 END = 1',
    ]);
  });
  it('drops the WHERE keyword when the last predicate goes', () => {
    const w = topLevelWhere('SELECT * FROM t WHERE a = 1;')!;
    expect(w.predicates).toEqual(['a = 1']);
    expect(w.without(0)).toBe('SELECT * FROM t;');
  });
  it('treats a top-level OR as one predicate', () => {
    expect(topLevelWhere('SELECT * FROM t WHERE a = 1 OR b = 2 AND c = 3')!.predicates).toEqual([
      'a = 1 OR b = 2 AND c = 3',
    ]);
  });
  it('returns null without a top-level WHERE', () => {
    expect(topLevelWhere('SELECT * FROM (SELECT * FROM t WHERE a = 1)')).toBeNull();
  });
});
