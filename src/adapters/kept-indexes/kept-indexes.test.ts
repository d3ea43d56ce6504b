import 'fake-indexeddb/auto';
import { mkdtemp, readdir, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDb, notesSql, SHOP_SQL } from '../../test-support/build-db';
import type { ToolboxSnapshot, ToolboxStore } from '../../core/tools/toolbox-snapshot';
import { createNodeEngine } from '../sqljs/node';
import { cacheFolder, fileToolboxStore } from './file-store';
import { forgetKeptIndexes, idbToolboxStore } from './idb-store';

const folders: string[] = [];
async function tempFolder() {
  const dir = await mkdtemp(join(tmpdir(), 'dowser-kept-'));
  folders.push(dir);
  return dir;
}
afterEach(async () => {
  for (const d of folders.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A store that tells when a snapshot was written (the engine does not wait for it). */
function watched(store: ToolboxStore) {
  let written: (s: ToolboxSnapshot) => void = () => {};
  const next = () => new Promise<ToolboxSnapshot>((r) => (written = r));
  return {
    next,
    store: {
      get: (key: string) => store.get(key),
      put: async (s: ToolboxSnapshot) => {
        const done = await store.put(s);
        written(s);
        return done;
      },
      remove: (key: string) => store.remove(key),
    } satisfies ToolboxStore,
  };
}

/** A snapshot's file checksum, for snapshots put by hand (no file behind them). */
const NO_FILE = { algorithm: 'none', digest: '', sizeBytes: 0 };

async function databaseFile(dir: string, name = 'notes.sqlite') {
  const path = join(dir, name);
  await writeFile(path, await buildDb(SHOP_SQL + notesSql(1500)));
  return path;
}

const QUERIES = ['Paris', 'paid', 'N-00', 'marbel', 'mrabel', 'Ünterwegs'];
async function answers(engine: Awaited<ReturnType<typeof createNodeEngine>>, id: string) {
  const out: string[] = [];
  for (const query of QUERIES) out.push((await engine.callTool(id, 'search_value', { query })).observation);
  return out;
}

describe('kept indexes (issue 26)', () => {
  for (const read of ['memory', 'file'] as const)
    it(`a file opened again (${read}) gets its indexes from the store, answering as the build did`, async () => {
      const dir = await tempFolder();
      const path = await databaseFile(dir);
      const first = watched(fileToolboxStore(join(dir, 'cache')));
      const a = await createNodeEngine({ toolboxStore: first.store, keepFromCells: 0 });
      await a.open({ id: 'a', name: 'notes', bytes: { path }, read });
      const written = first.next();
      expect((await a.buildTools('a')).reused).toBe(false);
      await written;
      const built = await answers(a, 'a');
      expect(built.join('\n')).toContain('Paris');
      expect(await readdir(join(dir, 'cache', 'indexes'))).toHaveLength(1);

      // Another process: a new engine over the same folder.
      const b = await createNodeEngine({ toolboxStore: fileToolboxStore(join(dir, 'cache')), keepFromCells: 0 });
      await b.open({ id: 'b', name: 'notes', bytes: { path }, read });
      const summary = await b.buildTools('b');
      expect(summary.reused).toBe(true);
      expect(await answers(b, 'b')).toEqual(built);
      // The settings' "no": nothing kept is read.
      await b.open({ id: 'c', name: 'notes', bytes: { path }, read });
      expect((await b.buildTools('c', { keep: false })).reused).toBe(false);
      // Another budget is another index.
      expect((await b.buildTools('c', { valueCellBudget: 100 })).reused).toBe(false);
    });

  it('a changed file, or bytes passed by a caller, is built again', async () => {
    const dir = await tempFolder();
    const path = await databaseFile(dir);
    const store = fileToolboxStore(join(dir, 'cache'));
    const first = watched(store);
    const engine = await createNodeEngine({ toolboxStore: first.store, keepFromCells: 0 });
    await engine.open({ id: 'a', name: 'notes', bytes: { path } });
    const written = first.next();
    await engine.buildTools('a');
    await written;
    // Same bytes, another modification time: the file may have changed in between.
    const later = new Date(Date.now() + 60_000);
    await utimes(path, later, later);
    await engine.open({ id: 'b', name: 'notes', bytes: { path } });
    expect((await engine.buildTools('b')).reused).toBe(false);
    // Bytes without a file behind them are never keyed.
    await engine.open({ id: 'c', name: 'notes', bytes: new Uint8Array(await readFile(path)) });
    expect((await engine.buildTools('c')).reused).toBe(false);
  });

  it('a damaged kept file is a miss: the indexes are built again, without an error', async () => {
    const dir = await tempFolder();
    const path = await databaseFile(dir);
    const first = watched(fileToolboxStore(join(dir, 'cache')));
    const a = await createNodeEngine({ toolboxStore: first.store, keepFromCells: 0 });
    await a.open({ id: 'a', name: 'notes', bytes: { path } });
    const written = first.next();
    await a.buildTools('a');
    await written;
    const built = await answers(a, 'a');
    const [name] = await readdir(join(dir, 'cache', 'indexes'));
    const kept = join(dir, 'cache', 'indexes', name);
    const good = await readFile(kept);
    // A byte flipped in the arrays (their checksum), in the JSON (the header's), then a file cut short.
    for (const damage of ['arrays', 'json', 'cut'] as const) {
      const bytes = Buffer.from(good);
      if (damage === 'arrays') bytes[bytes.length - 100] ^= 0xff;
      if (damage === 'json') bytes[40] ^= 0x01;
      await writeFile(kept, bytes);
      if (damage === 'cut') await truncate(kept, 1000);
      // Reads the damaged file, writes nothing (a rebuild kept would hide whether it was removed).
      const reader = fileToolboxStore(join(dir, 'cache'));
      const b = await createNodeEngine({ toolboxStore: { ...reader, put: async () => false } });
      await b.open({ id: 'b', name: 'notes', bytes: { path } });
      expect((await b.buildTools('b')).reused).toBe(false);
      expect(await answers(b, 'b')).toEqual(built);
      // Removed, so the next opening does not read it again.
      expect(await readdir(join(dir, 'cache', 'indexes'))).toEqual([]);
    }
  });

  it('a small database is not kept: its indexes are made again faster than read', async () => {
    const dir = await tempFolder();
    const path = await databaseFile(dir);
    let puts = 0;
    const store: ToolboxStore = {
      get: async () => null,
      put: async () => (puts++, true),
      remove: async () => undefined,
    };
    const engine = await createNodeEngine({ toolboxStore: store });
    await engine.open({ id: 'a', name: 'notes', bytes: { path } });
    await engine.buildTools('a');
    await new Promise((r) => setTimeout(r, 50));
    expect(puts).toBe(0);
    const always = await createNodeEngine({ toolboxStore: store, keepFromCells: 0 });
    await always.open({ id: 'a', name: 'notes', bytes: { path } });
    await always.buildTools('a');
    await new Promise((r) => setTimeout(r, 50));
    expect(puts).toBe(1);
  });

  it('the folder keeps the most recently used few', async () => {
    const dir = await tempFolder();
    const store = fileToolboxStore(join(dir, 'cache'), { maxEntries: 2 });
    const engine = await createNodeEngine();
    await engine.open({ id: 'x', name: 'x', bytes: await buildDb(SHOP_SQL) });
    // A real snapshot, kept under three keys.
    const { buildToolbox } = await import('../../core/tools/toolbox');
    const { executorFor } = await import('../../core/executor');
    const toolbox = await buildToolbox(executorFor(engine, 'x'), await engine.introspect('x'));
    for (const key of ['k1', 'k2']) await store.put({ ...toolbox.snapshot(), key, content: NO_FILE });
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.get('k1')).not.toBeNull(); // used: k2 is now the oldest
    await new Promise((r) => setTimeout(r, 20));
    await store.put({ ...toolbox.snapshot(), key: 'k3', content: NO_FILE });
    expect((await readdir(join(dir, 'cache', 'indexes'))).sort()).toEqual(['k1.index', 'k3.index']);
    expect(await store.get('k2')).toBeNull();
    expect((await store.get('k3'))?.key).toBe('k3');
  });

  it('DOWSER_CACHE names the folder, or turns keeping off', () => {
    expect(cacheFolder({ DOWSER_CACHE: 'off' })).toBeNull();
    expect(cacheFolder({ DOWSER_CACHE: '/tmp/x' })).toBe('/tmp/x');
    expect(cacheFolder({ XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'dowser'));
  });

  it('in IndexedDB (the page): kept, the newest few, and forgotten on request', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 'x', name: 'x', bytes: await buildDb(SHOP_SQL + notesSql(300)) });
    const { buildToolbox } = await import('../../core/tools/toolbox');
    const { executorFor } = await import('../../core/executor');
    const { toolboxFromSnapshot } = await import('../../core/tools/toolbox');
    const exec = executorFor(engine, 'x');
    const schema = await engine.introspect('x');
    const toolbox = await buildToolbox(exec, schema);
    const dbName = 'dowser-indexes-test';
    const store = idbToolboxStore({ dbName, maxEntries: 2 });
    for (const key of ['k1', 'k2', 'k3']) await store.put({ ...toolbox.snapshot(), key, content: NO_FILE });
    expect(await store.get('k1')).toBeNull();
    const kept = await store.get('k3');
    expect(kept?.key).toBe('k3');
    const restored = await toolboxFromSnapshot(exec, schema, kept!);
    for (const query of QUERIES)
      expect((await restored.call('search_value', { query })).observation).toBe(
        (await toolbox.call('search_value', { query })).observation,
      );
    await forgetKeptIndexes(dbName);
    expect(await store.get('k2')).toBeNull();
    expect(await store.get('k3')).toBeNull();
  });
});
