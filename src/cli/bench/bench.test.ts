// The bench end to end on tiny sizes: the report has the shape issue 3 asks for and sane values.
// Timings are not asserted (machines vary); `dowser bench` on full sizes is where they count.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../main';
import { makeQuerySets, prefixOf, withTypo } from './queries';
import { seeded } from './random';
import { formatBenchReport, type BenchReport } from './report';
import { runBench } from './run-bench';
import { ensureValueDb } from './value-db';
import { generateValueTables } from './value-data';

const TINY = {
  rows: 5_000,
  queries: 20,
  pathQueries: 50,
  wideTables: 10,
  wideColumns: 10,
  wideRowsPerTable: 2,
  seed: 3,
};

const isRate = (x: number) => x >= 0 && x <= 1;

describe('runBench on tiny sizes', () => {
  it('reports every metric of issue 3 with sane values', async () => {
    const r = await runBench({ ...TINY, cacheDir: null });
    expect(Object.keys(r.valueIndex)).toEqual(
      expect.arrayContaining(['valuesPerSec', 'values', 'extractMs', 'buildMs']),
    );
    expect(r.valueIndex.values).toBe(r.data.distinctTextValues);
    expect(r.valueIndex.policies).toEqual({ all: 12 });
    expect(r.valueIndex.valuesPerSec).toBeGreaterThan(0);
    for (const kind of ['exact', 'typo', 'prefix'] as const) {
      const k = r.searchValue[kind];
      expect(k.queries).toBe(20);
      expect(k.failures).toBe(0);
      expect(isRate(k.hitAt1) && isRate(k.hitAt5)).toBe(true);
      expect(k.hitAt1).toBeLessThanOrEqual(k.hitAt5);
      expect(k.p50).toBeLessThanOrEqual(k.p95);
    }
    // Every value is distinct across the database, so the value itself is the one exact match.
    expect(r.searchValue.exact.hitAt1).toBe(1);
    // Quality floors the index must keep even on tiny data (typos, unambiguous prefixes).
    expect(r.searchValue.typo.hitAt5).toBeGreaterThanOrEqual(0.9);
    expect(r.searchValue.prefix.unambiguousHitAt5).toBeGreaterThanOrEqual(0.9);
    expect(r.joinPath.queries).toBe(50);
    expect(r.joinPath.pathsFound).toBe(50);
    expect(r.joinPath.p50).toBeLessThanOrEqual(r.joinPath.p95);
    expect(r.introspect.ms).toBeGreaterThan(0);
    expect(r.introspect.tables).toBe(10);
    expect(r.promptTokens.tableSummary).toBeGreaterThan(0);
    expect(r.promptTokens.tableSummary).toBeLessThan(r.promptTokens.fullDDL);
    expect(r.targets.map((t) => t.metric)).toContain('searchValue.typo.hitAt5');
    expect(formatBenchReport(r)).toMatch(/searchValue\.exact\.hitAt1 +1 +>= 1 +PASS/);
  });
});

describe('dowser bench', () => {
  it('prints the table and writes the JSON report, exit code 0', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'dowser-bench-test-'));
    try {
      let out = '';
      const io = {
        stdout: { write: (s: string) => (out += s) },
        stderr: { write: () => true },
        readFile: () => new Uint8Array(),
      };
      const code = await run(
        ['bench', '--rows', '3000', '--queries', '5', '--no-cache', '--out', join(dir, 'sub', 'bench.json')],
        io,
      );
      expect(code).toBe(0);
      expect(out).toContain('valueIndex.valuesPerSec');
      const json = JSON.parse(readFileSync(join(dir, 'sub', 'bench.json'), 'utf8')) as BenchReport;
      expect(Object.keys(json).slice(0, 5)).toEqual([
        'valueIndex',
        'searchValue',
        'joinPath',
        'introspect',
        'promptTokens',
      ]);
      expect(Object.keys(json.searchValue.prefix)).toContain('hitAt5');
      expect(Object.keys(json.promptTokens)).toEqual(expect.arrayContaining(['tableSummary', 'fullDDL']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses --quick with --rows', async () => {
    let err = '';
    const io = {
      stdout: { write: () => true },
      stderr: { write: (s: string) => (err += s) },
      readFile: () => new Uint8Array(),
    };
    expect(await run(['bench', '--quick', '--rows', '10'], io)).toBe(2);
    expect(err).toContain('--quick and --rows');
  });
});

describe('generated data', () => {
  it('is the same for a seed and distinct after normalisation across columns', () => {
    const a = generateValueTables(4_000, 9);
    const b = generateValueTables(4_000, 9);
    expect(a.map((t) => t.text.map((c) => c.pool.slice(0, 5)))).toEqual(
      b.map((t) => t.text.map((c) => c.pool.slice(0, 5))),
    );
    const all = a.flatMap((t) => t.text.flatMap((c) => c.pool.map((v) => v.toLowerCase())));
    expect(new Set(all).size).toBe(all.length);
    expect(a.reduce((n, t) => n + t.rows, 0)).toBe(4_000);
  });

  it('caches the database by its parameters', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'dowser-bench-cache-'));
    try {
      const first = await ensureValueDb({ rows: 1_000, seed: 2, cacheDir: dir });
      const second = await ensureValueDb({ rows: 1_000, seed: 2, cacheDir: dir });
      expect([first.reused, second.reused]).toEqual([false, true]);
      expect(second.bytes).toEqual(first.bytes);
      expect(second.distinctTextValues).toBe(first.distinctTextValues);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('queries', () => {
  it('makes one-edit typos inside words of 4+ letters, and 60% prefixes', () => {
    const rnd = seeded(5);
    for (let i = 0; i < 200; i++) {
      const q = withTypo('Velmor Classic Oak Chair X210', rnd)!;
      expect(q).not.toBeNull();
      expect(q.toLowerCase()).not.toBe('velmor classic oak chair x210');
      expect(Math.abs(q.length - 29)).toBeLessThanOrEqual(1);
      expect(q.endsWith('Oak Chair X210') || q.startsWith('Velmor Classic Oak')).toBe(true);
    }
    expect(withTypo('Bo Li', rnd)).toBeNull();
    expect(prefixOf('North Belmarford')).toBe('North Belm'); // 10 of 16 characters
  });

  it('draws distinct targets from the indexed values', () => {
    const columns = [
      {
        table: 'a',
        column: 'x',
        values: ['Alpha Centauri', 'Betelgeuse'],
        counts: [1, 1],
        rowsScanned: 2,
        policy: 'all' as const,
      },
      {
        table: 'b',
        column: 'y',
        values: ['Canopus', 'Deneb', 'Ek'],
        counts: [1, 1, 1],
        rowsScanned: 3,
        policy: 'all' as const,
      },
    ];
    const sets = makeQuerySets(columns, 10, 1);
    expect(sets.exact).toHaveLength(5);
    expect(new Set(sets.exact.map((q) => q.query)).size).toBe(5);
    expect(sets.typo.map((q) => q.target.value).sort()).toEqual(['Alpha Centauri', 'Betelgeuse', 'Canopus', 'Deneb']);
    for (const q of sets.exact) expect(columns.find((c) => c.table === q.target.table)!.values).toContain(q.query);
  });
});
