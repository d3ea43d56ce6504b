import { describe, expect, it } from 'vitest';
import { generateValueColumns, runValueBench, withTypo } from './value-bench';

describe('value bench', () => {
  it('generates the same distinct values for a seed', () => {
    const a = generateValueColumns(2000, 3);
    const b = generateValueColumns(2000, 3);
    expect(a).toEqual(b);
    const all = a.flatMap((c) => c.values);
    expect(all).toHaveLength(2000);
    expect(new Set(all.map((v) => v.toLowerCase())).size).toBe(2000);
  });

  it('makes one edit in a word of four or more letters', () => {
    let seed = 0;
    const rnd = () => ((seed = (seed * 9301 + 49297) % 233280) / 233280);
    for (let i = 0; i < 50; i++) {
      const typo = withTypo('Springfield Heights', rnd)!;
      expect(typo).not.toBe('Springfield Heights');
      expect(Math.abs(typo.length - 'Springfield Heights'.length)).toBeLessThanOrEqual(1);
    }
    expect(withTypo('Bo Li', rnd)).toBeNull();
  });

  it('reports quality and speed for each kind of query', async () => {
    const r = await runValueBench({ distinctValues: 5000, queries: 60, seed: 2 });
    expect(r.distinctValues).toBe(5000);
    expect(r.valuesPerSec).toBeGreaterThan(0);
    expect(r.exact.hitAt1).toBe(1);
    expect(r.typo.hitAt5).toBeGreaterThanOrEqual(0.9);
    expect(r.prefix.hitAt5Unambiguous).toBeGreaterThanOrEqual(0.9);
    expect(r.prefix.p95Ms).toBeGreaterThanOrEqual(r.prefix.p50Ms);
  });
});
