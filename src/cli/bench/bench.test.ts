// The bench end to end on tiny sizes: the reports have the shape issues 3 and 10 ask for and
// sane values. Timings are not asserted (machines vary); `dowser bench` on full sizes is where
// they count.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { osaDistance } from '../../core/text/edit-distance';
import { run } from '../main';
import type { FileBenchReport } from './file-bench';
import { seeded } from './random';
import { formatBenchReport } from './report';
import { runBench } from './run-bench';
import { Shop } from './shop-data';
import { shopStats, writeShopDb } from './shop-db';
import { makeShopQueries } from './shop-queries';
import { withTypos } from './typos';

const TINY = {
  mb: 0.3,
  order: 'shuffled' as const,
  queries: 12,
  pathQueries: 50,
  wideTables: 10,
  wideColumns: 10,
  wideRowsPerTable: 2,
  seed: 3,
};

const isRate = (x: number) => x >= 0 && x <= 1;

function io(files: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: { write: (s: string) => (out.stdout += s) },
      stderr: { write: (s: string) => (out.stderr += s) },
      readFile: (p: string) => {
        if (p in files) return new TextEncoder().encode(files[p]);
        return new Uint8Array(readFileSync(p));
      },
    },
  };
}

describe('runBench on tiny sizes', () => {
  it('reports every metric of issues 3 and 10 with sane values', async () => {
    const r = await runBench({ ...TINY, cacheDir: null });
    const v = r.values;
    expect(v.buildMs).toBeGreaterThan(0);
    expect(v.sqliteReadMs).toBeGreaterThan(0);
    expect(Math.abs(v.buildToSqliteRead / (v.buildMs / v.sqliteReadMs) - 1)).toBeLessThan(0.1);
    expect(v.peakRssMB).toBeGreaterThan(0);
    expect(v.valuesIndexed).toBeGreaterThan(1000);
    expect(v.textCellsRead).toBeGreaterThan(v.valuesIndexed);
    expect(Object.keys(v.kinds).sort()).toEqual(['code', 'exact', 'freetext', 'late', 'prefix', 'typo1', 'typo2']);
    for (const k of Object.values(v.kinds)) {
      expect(k.n).toBeGreaterThan(0);
      expect(isRate(k.hitAt5) && isRate(k.hitAt1)).toBe(true);
      expect(k.hitAt1).toBeLessThanOrEqual(k.hitAt5);
      expect(k.p50Ms).toBeLessThanOrEqual(k.p95Ms);
      expect(k.likeQueries).toBe(0);
    }
    // Quality floors the index must keep even on tiny data.
    expect(v.kinds.exact.hitAt1).toBeGreaterThanOrEqual(0.9);
    expect(v.kinds.code.hitAt1).toBe(1);
    expect(v.kinds.late.hitAt5).toBe(1);
    expect(v.kinds.typo1.hitAt5).toBeGreaterThanOrEqual(0.9);
    expect(v.kinds.typo2.hitAt5).toBeGreaterThanOrEqual(0.8);
    expect(v.kinds.freetext.hitAt5).toBeGreaterThanOrEqual(0.8);
    expect(r.joinPath.pathsFound).toBe(50);
    expect(r.introspect.tables).toBe(10);
    expect(r.promptTokens.tableSummary).toBeLessThan(r.promptTokens.fullDDL);
    expect(r.targets.map((t) => t.metric)).toEqual(
      expect.arrayContaining(['searchValue.typo2.hitAt5', 'searchValue.freetext.p95Ms', 'build.toSqliteRead']),
    );
    expect(formatBenchReport(r)).toMatch(/searchValue\.code\.p95Ms +[\d.]+ +<= 50 ms +(PASS|MISS)/);
  }, 120_000);
});

describe('dowser bench --db --queries --out', () => {
  it('measures a given file on given queries and writes the report', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'dowser-bench-db-'));
    try {
      const SQL = await initSqlJs();
      const db = new SQL.Database();
      db.run(
        "CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO city (name) VALUES ('Paris'), ('Oslo'), ('Zürich')",
      );
      writeFileSync(join(dir, 'c.sqlite'), db.export());
      db.close();
      const queries = {
        typos: [{ query: 'Pairs', expect: 'Paris' }],
        scoped: [
          { query: 'zurich', table: 'city', column: 'name', expect: 'Zürich' },
          { query: 'Lisbon', expect: 'Lisbon' },
        ],
      };
      writeFileSync(join(dir, 'q.json'), JSON.stringify(queries));
      const { io: cli, out } = io();
      const code = await run(
        ['bench', '--db', join(dir, 'c.sqlite'), '--queries', join(dir, 'q.json'), '--out', join(dir, 'r', 'r.json')],
        cli,
      );
      expect(code).toBe(0);
      expect(out.stdout).toMatch(/typos +1 /);
      const r = JSON.parse(readFileSync(join(dir, 'r', 'r.json'), 'utf8')) as FileBenchReport;
      for (const key of ['buildMs', 'sqliteReadMs', 'peakRssMB', 'valuesIndexed'] as const)
        expect(typeof r[key]).toBe('number');
      expect(r.valuesIndexed).toBe(3);
      expect(r.kinds.typos).toMatchObject({ n: 1, hitAt5: 1 });
      expect(r.kinds.scoped).toMatchObject({ n: 2, hitAt5: 0.5 });
      expect(Object.keys(r.kinds.scoped)).toEqual(expect.arrayContaining(['n', 'p50Ms', 'p95Ms', 'hitAt5']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses a malformed queries file and generator options with --db', async () => {
    const { io: cli, out } = io({ 'bad.json': '{"kind": [{"q": "x"}]}' });
    expect(await run(['bench', '--db', 'x.sqlite', '--queries', 'bad.json'], cli)).toBe(2);
    expect(out.stderr).toMatch(/should be \{"<kind>": \[\{"query", "table"\?, "column"\?, "expect"\}\]\}/);
    expect(await run(['bench', '--db', 'x.sqlite', '--mb', '5'], cli)).toBe(2);
    expect(await run(['bench', '--quick', '--mb', '10'], cli)).toBe(2);
  });
});

describe('the shop generator', () => {
  it('makes the same rows in both orders, with rowids in time order only for insertion', async () => {
    const a = await writeShopDb({ orders: 400, order: 'insertion', seed: 4 });
    const b = await writeShopDb({ orders: 400, order: 'shuffled', seed: 4 });
    const SQL = await initSqlJs();
    const read = (bytes: Uint8Array, sql: string) => {
      const db = new SQL.Database(bytes);
      try {
        return db.exec(sql)[0].values;
      } finally {
        db.close();
      }
    };
    const codes = 'SELECT order_code FROM orders ORDER BY rowid';
    const inOrder = read(a.bytes, codes).map((r) => r[0] as string);
    const shuffled = read(b.bytes, codes).map((r) => r[0] as string);
    expect([...inOrder].sort()).toEqual(inOrder);
    expect([...shuffled].sort()).toEqual(inOrder);
    expect(shuffled).not.toEqual(inOrder);
    expect(read(a.bytes, 'SELECT count(*) FROM orders WHERE note IS NOT NULL')[0][0]).toBeGreaterThan(100);
  });

  it('asks about late values that only the last rows hold, and rare words of free text', () => {
    const shop = new Shop(5, 3000, false);
    const stats = shopStats(shop);
    const q = makeShopQueries(shop, stats, 20, 9);
    for (const kind of ['exact', 'typo1', 'typo2', 'prefix', 'code', 'freetext', 'late'])
      expect(q[kind].length).toBeGreaterThan(0);
    const firstSeen = new Map([...stats.firstSeen.values()].flatMap((m) => [...m]));
    for (const { query } of q.late) expect(firstSeen.get(query)).toBeGreaterThan(0.9);
    for (const { query, expect: text } of q.freetext) {
      expect(text.toLowerCase()).toContain(query.toLowerCase());
      expect(stats.wordCells.get(query.toLowerCase())).toBeLessThanOrEqual(3);
    }
  });
});

describe('typos', () => {
  it('makes exactly one or two edits inside a word, at any position', () => {
    const rnd = seeded(5);
    const value = 'Velmor Classic Belmarford Chair';
    for (const edits of [1, 2] as const) {
      const firstChange = new Set<number>();
      for (let i = 0; i < 300; i++) {
        const q = withTypos(value, edits, rnd)!;
        expect(osaDistance(q.toLowerCase(), value.toLowerCase())).toBe(edits);
        let at = 0;
        while (q[at] === value[at]) at++;
        firstChange.add(at);
      }
      // the first letter of a word is edited too (position 0, or 15 for Belmarford)
      expect(firstChange.has(edits === 1 ? 0 : 15)).toBe(true);
    }
    expect(withTypos('Bo Li', 1, rnd)).toBeNull();
    expect(withTypos('Velmor Chair', 2, rnd)).toBeNull(); // two edits need a word of 8+ letters
  });
});
