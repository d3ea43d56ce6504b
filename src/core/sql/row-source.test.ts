import { describe, expect, it } from 'vitest';
import { isPlainAggregate, rowSource } from './row-source';

describe('rowSource', () => {
  it('keeps the FROM clause with its joins and the WHERE, drops grouping, ordering and limits', () => {
    const s = rowSource(
      "SELECT count(*) FROM flights AS f JOIN airports a ON f.DestAirport = a.AirportCode LEFT JOIN airlines l ON l.uid = f.Airline WHERE a.City = 'Aberdeen' AND f.x > (SELECT 1 FROM t WHERE y = 2) ORDER BY 1 LIMIT 3;",
    );
    expect(s?.sql).toBe(
      "SELECT 1 FROM flights AS f JOIN airports a ON f.DestAirport = a.AirportCode LEFT JOIN airlines l ON l.uid = f.Airline WHERE a.City = 'Aberdeen' AND f.x > (SELECT 1 FROM t WHERE y = 2)",
    );
    expect(s?.joins).toEqual([
      'flights AS f',
      'JOIN airports a ON f.DestAirport = a.AirportCode',
      'LEFT JOIN airlines l ON l.uid = f.Airline',
    ]);
    expect(s?.joinPrefixes).toEqual([
      'FROM flights AS f',
      'FROM flights AS f JOIN airports a ON f.DestAirport = a.AirportCode',
      'FROM flights AS f JOIN airports a ON f.DestAirport = a.AirportCode LEFT JOIN airlines l ON l.uid = f.Airline',
    ]);
  });

  it('gives null for what is not one plain SELECT', () => {
    expect(rowSource('SELECT 1 UNION SELECT 2')).toBeNull();
    expect(rowSource('WITH x AS (SELECT 1) SELECT * FROM x')).toBeNull();
    expect(rowSource('SELECT 1')).toBeNull();
  });

  it('tells a plain aggregate from a grouped one', () => {
    expect(isPlainAggregate('SELECT count(*) FROM t WHERE a = 1')).toBe(true);
    expect(isPlainAggregate('SELECT a, count(*) FROM t GROUP BY a')).toBe(false);
    expect(isPlainAggregate('SELECT name FROM t')).toBe(false);
  });
});
