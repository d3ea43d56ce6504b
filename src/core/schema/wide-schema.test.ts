// Correctness of join paths on a 200 x 50 synthetic schema, with the timings printed (not
// asserted: CI machines vary). The budget is p95 <= 1 ms per query.

import { describe, expect, it } from 'vitest';
import type { JoinPath } from '../retrieval/types';
import { buildJoinGraph, shortestJoinPaths } from './join-graph';
import { makeWideSchema } from './wide-schema';

/** All-pairs hop counts by plain BFS over the declared keys: the reference for "shortest". */
function hopCounts(tables: string[], links: Array<[string, string]>): Map<string, Map<string, number>> {
  const neighbours = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const [a, b] of links) {
    neighbours.get(a)!.add(b);
    neighbours.get(b)!.add(a);
  }
  const all = new Map<string, Map<string, number>>();
  for (const start of tables) {
    const dist = new Map([[start, 0]]);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const n of neighbours.get(queue[i])!) {
        if (!dist.has(n)) {
          dist.set(n, dist.get(queue[i])! + 1);
          queue.push(n);
        }
      }
    }
    all.set(start, dist);
  }
  return all;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

describe('join paths on a 10,000-column schema', () => {
  const schema = makeWideSchema();

  it('is deterministic and as wide as asked', () => {
    expect(makeWideSchema()).toEqual(schema);
    expect(schema.tables).toHaveLength(200);
    expect(schema.tables.every((t) => t.columns.length === 50)).toBe(true);
    expect(schema.foreignKeys.some((fk) => fk.from.length === 2)).toBe(true);
  });

  it('answers 1,000 random pairs with valid, equally short, shortest paths', () => {
    const buildStart = performance.now();
    const graph = buildJoinGraph(schema);
    const buildMs = performance.now() - buildStart;
    const names = schema.tables.map((t) => t.name);
    const reference = hopCounts(
      names,
      schema.foreignKeys.map((fk) => [fk.table, fk.refTable]),
    );

    let seed = 7;
    const pick = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return schema.tables[seed % schema.tables.length];
    };
    // A short untimed warm-up, so the numbers describe a page that has been open a while.
    for (let i = 0; i < 200; i++) shortestJoinPaths(graph, pick().name, pick().name);
    const timings: number[] = [];
    let totalPaths = 0;
    for (let i = 0; i < 1000; i++) {
      const a = pick();
      const b = pick();
      // Half the endpoints are columns, which map to their tables.
      const start = i % 2 ? a.name : `${a.name}.${a.columns[i % a.columns.length].name}`;
      const end = b.name;
      const t0 = performance.now();
      const result = shortestJoinPaths(graph, start, end);
      timings.push(performance.now() - t0);

      if (!result.ok) throw new Error(result.message);
      const hops = reference.get(a.name)!.get(b.name)!;
      expect(result.paths.length).toBeGreaterThan(0);
      expect(result.paths.length).toBeLessThanOrEqual(5);
      expect(result.totalPaths).toBeGreaterThanOrEqual(result.paths.length);
      totalPaths += result.totalPaths;
      const distinct = new Set(result.paths.map((p) => p.joinClause));
      expect(distinct.size).toBe(result.paths.length);
      for (const p of result.paths) expectValidPath(p, a.name, b.name, hops);
    }
    timings.sort((x, y) => x - y);
    const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
    console.log(
      `join paths, 200 tables x 50 columns (${schema.foreignKeys.length} keys): build ${buildMs.toFixed(2)} ms; ` +
        `query p50 ${us(percentile(timings, 0.5))}, p95 ${us(percentile(timings, 0.95))}, max ${us(timings[timings.length - 1])}; ` +
        `${(totalPaths / 1000).toFixed(2)} equally short paths per pair on average`,
    );
  });
});

function expectValidPath(p: JoinPath, start: string, end: string, hops: number): void {
  expect(p.tables[0]).toBe(start);
  expect(p.tables[p.tables.length - 1]).toBe(end);
  expect(p.edges.length).toBe(hops);
  expect(p.tables.length).toBe(hops + 1);
  p.edges.forEach((e, i) => {
    // Each edge joins the two tables it sits between, in one direction or the other.
    expect([e.fromTable, e.toTable].sort()).toEqual([p.tables[i], p.tables[i + 1]].sort());
    expect(p.joinClause).toContain(`"${e.fromTable}"."${e.fromColumns[0]}" = "${e.toTable}"."${e.toColumns[0]}"`);
  });
}
