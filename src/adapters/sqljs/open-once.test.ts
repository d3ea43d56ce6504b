// The file is held once while it opens: bytes the engine read itself are handed to sql.js's
// file system, not copied (decision 012). sql.js copies with slice() on the array it is given;
// a copy the size of the file made during open is what these tests catch.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildDb } from '../../test-support/build-db';
import { createNodeEngine } from './node';

async function fileOf(sql: string): Promise<{ path: string; bytes: Uint8Array }> {
  const bytes = await buildDb(sql);
  const path = join(mkdtempSync(join(tmpdir(), 'dowser-open-')), 'db.sqlite');
  writeFileSync(path, bytes);
  return { path, bytes };
}

/** Lengths of the arrays copied with slice() while `work` runs. */
async function slicesDuring(work: () => Promise<unknown>): Promise<number[]> {
  const spy = vi.spyOn(Uint8Array.prototype, 'slice');
  try {
    await work();
    return spy.mock.results.map((r) => (r.value as Uint8Array).length);
  } finally {
    spy.mockRestore();
  }
}

describe('opening a file holds it once', () => {
  afterEach(() => vi.restoreAllMocks());
  const rows =
    'CREATE TABLE t (a TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT printf("row %d", i) FROM n;';

  it('hands a file read by path to sql.js without copying it, and reads it whole', async () => {
    const { path, bytes } = await fileOf(rows);
    const engine = await createNodeEngine();
    const copies = await slicesDuring(() => engine.open({ id: 'db', name: 'db.sqlite', bytes: { path } }));
    expect(copies.filter((n) => n >= bytes.length)).toEqual([]);
    const r = await engine.query('db', "SELECT count(*), max(a) FROM t WHERE a LIKE 'row 1%'");
    expect(r.rows[0]).toEqual([1111, 'row 1999']);
  });

  it('a WAL file read by path is marked rollback-journal in the engine’s own bytes, not copied', async () => {
    const { path, bytes } = await fileOf(rows + ' PRAGMA journal_mode = WAL;');
    const engine = await createNodeEngine();
    const copies = await slicesDuring(() => engine.open({ id: 'db', name: 'db.sqlite', bytes: { path } }));
    expect(copies.filter((n) => n >= bytes.length)).toEqual([]);
    expect((await engine.query('db', 'SELECT count(*) FROM t')).rows[0][0]).toBe(2000);
  });

  it('bytes passed by a caller are still copied (the caller keeps them unchanged)', async () => {
    const { bytes } = await fileOf(rows);
    const before = Uint8Array.from(bytes);
    const engine = await createNodeEngine();
    const copies = await slicesDuring(() => engine.open({ id: 'db', name: 'db.sqlite', bytes }));
    expect(copies.some((n) => n === bytes.length)).toBe(true);
    expect((await engine.query('db', 'SELECT count(*) FROM t')).rows[0][0]).toBe(2000);
    expect(bytes).toEqual(before);
  });
});
