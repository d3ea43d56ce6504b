// Kept indexes that cannot be another file's, or crash when damaged (issue 35, items 3, 5, 16), at
// the engine: both ways of reading a file, a WAL-mode file read both ways, IndexedDB's read path,
// and what finishKeeping says. The CLI cases are in src/cli/red-team/item-0{3,5}-*, item-16-*.

import 'fake-indexeddb/auto';
import { createStore, get, keys, set } from 'idb-keyval';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CROP_A, CROP_B, writeCropsDb, writeTwinWithOtherCrop } from '../../cli/red-team/kept-fixtures';
import { digestContent } from '../../core/tools/content-digest';
import { createNodeEngine } from '../sqljs/node';
import { xxhashContentHasher } from '../content-hash/xxhash';
import { fileToolboxStore } from './file-store';
import { idbToolboxStore } from './idb-store';

const folders: string[] = [];
async function tempFolder() {
  const dir = await mkdtemp(join(tmpdir(), 'dowser-kept-safety-'));
  folders.push(dir);
  return dir;
}
afterEach(async () => {
  for (const d of folders.splice(0)) await rm(d, { recursive: true, force: true });
});

type Engine = Awaited<ReturnType<typeof createNodeEngine>>;
/** The values of crops.crop that search_value finds for `query`. */
async function crop(engine: Engine, id: string, query: string): Promise<string[]> {
  const outcome = await engine.callTool(id, 'search_value', { query });
  if (!outcome.ok) throw new Error(outcome.observation);
  const { hits } = outcome.output as { hits: Array<{ table: string; column: string; value: string }> };
  return hits.filter((h) => h.table === 'crops' && h.column === 'crop').map((h) => h.value);
}
const found = (query: string) => query;

describe('kept indexes are confirmed by the file’s content (issue 35, item 3)', () => {
  for (const read of ['memory', 'file'] as const)
    it(`(${read}) a twin with the same size, time and first 64 KiB is built again; the same file reuses`, async () => {
      const dir = await tempFolder();
      const [a, b] = [join(dir, 'a.sqlite'), join(dir, 'b.sqlite')];
      await writeCropsDb(a, 1500);
      writeTwinWithOtherCrop(a, b);
      const cache = join(dir, 'cache');
      const engine = await createNodeEngine({ toolboxStore: fileToolboxStore(cache), keepFromCells: 0 });
      await engine.open({ id: 'a', name: 'a', bytes: { path: a }, read });
      await engine.buildTools('a');
      expect(await engine.finishKeeping('a')).toBe('kept');

      await engine.open({ id: 'b', name: 'b', bytes: { path: b }, read });
      expect((await engine.buildTools('b')).reused).toBe(false);
      expect(await crop(engine, 'b', CROP_B)).toContain(found(CROP_B));
      expect(await crop(engine, 'b', CROP_A)).not.toContain(found(CROP_A));
      // B's index took the key they share.
      expect(await engine.finishKeeping('b')).toBe('kept');
      await engine.open({ id: 'b2', name: 'b', bytes: { path: b }, read });
      expect((await engine.buildTools('b2')).reused).toBe(true);
      expect(await engine.finishKeeping('b2')).toBe('reused');
      await engine.open({ id: 'a2', name: 'a', bytes: { path: a }, read });
      expect((await engine.buildTools('a2')).reused).toBe(false);
      expect(await crop(engine, 'a2', CROP_A)).toContain(found(CROP_A));
    });

  it('a WAL-mode file kept when read into memory is reused when read in place: the checksum is of the file', async () => {
    const dir = await tempFolder();
    const path = join(dir, 'wal.sqlite');
    await writeCropsDb(path, 1500);
    const bytes = await readFile(path);
    bytes[18] = 2; // WAL mode, no log beside it: SQLite reads the file as it is
    bytes[19] = 2;
    await writeFile(path, bytes);
    const engine = await createNodeEngine({ toolboxStore: fileToolboxStore(join(dir, 'cache')), keepFromCells: 0 });
    await engine.open({ id: 'm', name: 'wal', bytes: { path }, read: 'memory' });
    await engine.buildTools('m');
    expect(await engine.finishKeeping('m')).toBe('kept');
    await engine.open({ id: 'f', name: 'wal', bytes: { path }, read: 'file' });
    expect((await engine.buildTools('f')).reused).toBe(true);
    expect(await crop(engine, 'f', CROP_A)).toContain(found(CROP_A));
  });

  it('the checksum reads every byte: it differs for one byte changed anywhere, and refuses a file that ends early', async () => {
    const hasher = xxhashContentHasher();
    const source = (bytes: Uint8Array, size = bytes.length) => ({
      size,
      read: (offset: number, into: Uint8Array) => {
        const part = bytes.subarray(offset, offset + into.length);
        into.set(part);
        return part.length;
      },
    });
    const bytes = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => i * 31);
    const whole = await digestContent(source(bytes), hasher);
    const last = Uint8Array.from(bytes);
    last[last.length - 1] ^= 1;
    expect((await digestContent(source(last), hasher)).digest).not.toBe(whole.digest);
    expect((await digestContent(source(Uint8Array.from(bytes)), hasher)).digest).toBe(whole.digest);
    await expect(digestContent(source(bytes, bytes.length + 10), hasher)).rejects.toThrow(/ended/);
  });
});

describe('what finishKeeping says (issue 35, item 16)', () => {
  it('none for bytes without a file, not-kept below the size worth keeping, kept, then reused', async () => {
    const dir = await tempFolder();
    const path = join(dir, 'crops.sqlite');
    await writeCropsDb(path, 300);
    const store = fileToolboxStore(join(dir, 'cache'));
    const small = await createNodeEngine({ toolboxStore: store });
    await small.open({ id: 'bytes', name: 'x', bytes: new Uint8Array(await readFile(path)) });
    await small.buildTools('bytes');
    expect(await small.finishKeeping('bytes')).toBe('none');
    await small.open({ id: 'small', name: 'x', bytes: { path } });
    await small.buildTools('small');
    expect(await small.finishKeeping('small')).toBe('not-kept');
    const every = await createNodeEngine({ toolboxStore: store, keepFromCells: 0 });
    await every.open({ id: 'a', name: 'x', bytes: { path } });
    // Waits for a build under way, not only for a write.
    void every.buildTools('a');
    expect(await every.finishKeeping('a')).toBe('kept');
    await every.open({ id: 'b', name: 'x', bytes: { path } });
    await every.buildTools('b');
    expect(await every.finishKeeping('b')).toBe('reused');
  });
});

describe('IndexedDB’s read path (issue 35, item 5)', () => {
  it('a record that is not a snapshot is a miss: the index is built again and kept in its place', async () => {
    const dir = await tempFolder();
    const path = join(dir, 'crops.sqlite');
    await writeCropsDb(path, 1500);
    const dbName = 'dowser-indexes-safety';
    const engine = await createNodeEngine({ toolboxStore: idbToolboxStore({ dbName }), keepFromCells: 0 });
    await engine.open({ id: 'a', name: 'x', bytes: { path } });
    await engine.buildTools('a');
    expect(await engine.finishKeeping('a')).toBe('kept');
    const raw = createStore(dbName, 'snapshots');
    const [key] = (await keys<string>(raw)).filter((k) => k !== '__recent__');
    const good = await get<Record<string, unknown>>(key, raw);
    // Another version's or a hand-edited record: statistics that are not statistics.
    for (const damaged of [{ ...good, stats: 'garbage' }, { ...good, stats: [{ table: 1 }] }, 'not an object']) {
      await set(key, damaged, raw);
      await engine.open({ id: 'b', name: 'x', bytes: { path } });
      const summary = await engine.buildTools('b');
      expect(summary.reused).toBe(false);
      expect(await crop(engine, 'b', CROP_A)).toContain(found(CROP_A));
      expect(await engine.finishKeeping('b')).toBe('kept'); // built again and kept in its place
      expect((await get<{ key: string }>(key, raw))?.key).toBe(key);
    }
  });

  it('a recent list that is not a list of keys does not stop keeping', async () => {
    const dbName = 'dowser-indexes-safety-list';
    const raw = createStore(dbName, 'snapshots');
    await set('__recent__', { not: 'a list' }, raw);
    const dir = await tempFolder();
    const path = join(dir, 'crops.sqlite');
    await writeCropsDb(path, 300);
    const engine = await createNodeEngine({ toolboxStore: idbToolboxStore({ dbName }), keepFromCells: 0 });
    await engine.open({ id: 'a', name: 'x', bytes: { path } });
    await engine.buildTools('a');
    expect(await engine.finishKeeping('a')).toBe('kept');
    expect(await get('__recent__', raw)).toHaveLength(1);
  });
});
