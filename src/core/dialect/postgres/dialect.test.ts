import { describe, expect, it } from 'vitest';
import { postgresDialect } from './dialect';
import { assertPostgresRead } from './gate';

describe("PostgreSQL's own timing of a statement (Optimize)", () => {
  const timing = postgresDialect.timing!;

  it('runs the statement under EXPLAIN ANALYZE, which the read gate lets through', () => {
    const sql = timing.statement('SELECT count(*) FROM t');
    expect(sql).toBe('EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) SELECT count(*) FROM t');
    expect(() => assertPostgresRead(sql)).not.toThrow();
    expect(() => assertPostgresRead(timing.statement('DELETE FROM t'))).toThrow(/DELETE/);
  });

  it('reads the execution time from the JSON plan, and nothing from anything else', () => {
    expect(timing.ms([['[{"Plan": {"Node Type": "Seq Scan"}, "Planning Time": 0.1, "Execution Time": 1.25}]']])).toBe(
      1.25,
    );
    expect(timing.ms([[[{ 'Execution Time': 3 }]]])).toBe(3);
    expect(timing.ms([['not json']])).toBeNull();
    expect(timing.ms([['[{"Plan": {}}]']])).toBeNull();
    expect(timing.ms([])).toBeNull();
  });
});
