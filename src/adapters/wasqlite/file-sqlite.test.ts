// The connection that reads a database from its file as needed (issue 26), below the engine's
// gates: SQLite itself cannot write through the read-only VFS, whatever it is asked.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { createNodeEngine } from '../sqljs/node';
import { loadNodeFileSqlite, openNodeFile } from './node';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function shopFile(patch?: (bytes: Uint8Array) => void): Promise<string> {
  const bytes = await buildDb(SHOP_SQL);
  patch?.(bytes);
  const path = join(mkdtempSync(join(tmpdir(), 'dowser-file-')), 'shop.sqlite');
  writeFileSync(path, bytes);
  return path;
}

describe('a database read from its file', () => {
  it('reads rows, 64-bit integers, reals, text and blobs as sql.js would', async () => {
    const path = await shopFile();
    const db = (await loadNodeFileSqlite()).open(openNodeFile(path), false);
    try {
      const stmt = db.prepare("SELECT 9007199254740993, -2.5, 'é€😀', x'00ff', NULL, ? + 1");
      stmt.bind([41]);
      expect(stmt.step()).toBe(true);
      expect(stmt.get(null, { useBigInt: true })).toEqual([
        9007199254740993n,
        -2.5,
        'é€😀',
        Uint8Array.from([0, 255]),
        null,
        42n,
      ]);
      stmt.free();
      expect(db.exec('SELECT name FROM customers ORDER BY id')[0].values).toEqual([['Ada'], ['Bo'], ['Cy']]);
    } finally {
      db.close();
    }
  });

  it('scans rows in place: text as UTF-8 bytes in the heap, numbers, bound parameters', async () => {
    const path = await shopFile();
    const db = (await loadNodeFileSqlite()).open(openNodeFile(path), false);
    try {
      const seen: string[] = [];
      const n = db.scan!('SELECT name, id FROM customers WHERE id >= ? ORDER BY id', [2], (row) => {
        const start = row.textStart(0);
        const bytes = row.heap().subarray(start, start + row.textLength(0));
        seen.push(`${new TextDecoder().decode(bytes)}:${row.number(1)}:${row.type(0)}`);
      });
      expect(n).toBe(2);
      expect(seen).toEqual(['Bo:2:3', 'Cy:3:3']);
    } finally {
      db.close();
    }
  });

  it('cannot be written, even with query_only off: the file keeps every byte', async () => {
    const path = await shopFile();
    const before = sha256(readFileSync(path));
    const db = (await loadNodeFileSqlite()).open(openNodeFile(path), false);
    try {
      for (const sql of [
        'CREATE TABLE z(a)',
        "INSERT INTO customers(name) VALUES ('x')",
        'DELETE FROM orders',
        'PRAGMA user_version = 7',
        'VACUUM',
      ])
        expect(() => db.exec(sql), sql).toThrow(/readonly|read-only|read only/i);
      expect(db.exec('SELECT count(*) FROM orders')[0].values).toEqual([[4]]);
    } finally {
      db.close();
    }
    expect(sha256(readFileSync(path))).toBe(before);
  });

  it('reads a WAL-mode file through its main file, leaving the header on disk as it was', async () => {
    const path = await shopFile((b) => {
      b[18] = 2;
      b[19] = 2;
    });
    const db = (await loadNodeFileSqlite()).open(openNodeFile(path), true);
    try {
      expect(db.exec('SELECT count(*) FROM customers')[0].values).toEqual([[3]]);
    } finally {
      db.close();
    }
    expect([...readFileSync(path).subarray(18, 20)]).toEqual([2, 2]);
  });

  it('sorts more than memory pages hold without a temporary file', async () => {
    const path = await shopFile();
    const db = (await loadNodeFileSqlite()).open(openNodeFile(path), false);
    try {
      const r = db.exec(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT count(*), max(k) FROM (SELECT i, hex(randomblob(32)) AS k FROM n ORDER BY k)',
      );
      expect(r[0].values[0][0]).toBe(200000);
    } finally {
      db.close();
    }
  });

  it("counts its heap toward the engine's memory limit: a huge value read from the file grows it", async () => {
    const path = await shopFile();
    const engine = await createNodeEngine();
    await engine.open({ id: 'h', name: 'shop.sqlite', bytes: { path }, read: 'file' });
    const before = await engine.heapBytes();
    const r = await engine.query('h', 'SELECT zeroblob(200000000) AS z');
    expect(r.cut?.[0].length).toBe(200_000_000);
    expect((await engine.heapBytes()) - before).toBeGreaterThan(150_000_000);
  });
});
