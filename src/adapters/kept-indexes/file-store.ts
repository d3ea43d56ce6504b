// The CLI's kept indexes (issue 26): one file per snapshot in a cache folder
// (DOWSER_CACHE, default $XDG_CACHE_HOME/dowser or ~/.cache/dowser), the newest few kept.
// A file is the snapshot's JSON followed by its typed arrays as they are in memory, so neither
// writing nor reading copies the index into one more buffer. Written to a temporary name and
// renamed, so a reader never sees half a file. Every failure is a miss: it is a cache.

import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  arraysOfChunks,
  newKeptArray,
  snapshotFromChunks,
  snapshotToChunks,
  type ToolboxSnapshot,
  type ToolboxStore,
} from '../../core/tools/toolbox-snapshot';

const MAGIC = 'DOWSERIX';
const SUFFIX = '.index';
const HEAD_BYTES = 16; // magic, then the JSON's length (u32) and 4 spare bytes

export interface FileToolboxStoreOptions {
  /** Snapshots kept; the least recently used go first. */
  maxEntries?: number;
  /** Told of a write that failed (disk full, no permission): the index is built again next time. */
  onError?(e: unknown): void;
}

/** The cache folder: DOWSER_CACHE's folder, or null when it says `off`. */
export function cacheFolder(env: Record<string, string | undefined>): string | null {
  const set = env.DOWSER_CACHE;
  if (set === 'off') return null;
  if (set) return set;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'dowser');
}

export function fileToolboxStore(folder: string, options: FileToolboxStoreOptions = {}): ToolboxStore {
  const dir = join(folder, 'indexes');
  const maxEntries = options.maxEntries ?? 4;
  const pathOf = (key: string) => join(dir, `${key}${SUFFIX}`);

  return {
    async get(key) {
      const path = pathOf(key);
      try {
        const snapshot = await readSnapshot(path);
        // Used now: it is the last to be evicted.
        const t = new Date();
        await utimes(path, t, t).catch(() => undefined);
        return snapshot;
      } catch {
        return null;
      }
    },
    async put(snapshot) {
      try {
        await mkdir(dir, { recursive: true });
        const temp = `${pathOf(snapshot.key)}.${process.pid}.tmp`;
        try {
          await writeSnapshot(temp, snapshot);
          await rename(temp, pathOf(snapshot.key));
        } catch (e) {
          await rm(temp, { force: true });
          throw e;
        }
        await evict(dir, maxEntries);
      } catch (e) {
        options.onError?.(e);
      }
    },
  };
}

async function writeSnapshot(path: string, snapshot: ToolboxSnapshot): Promise<void> {
  const { json, arrays } = snapshotToChunks(snapshot);
  const text = Buffer.from(json, 'utf8');
  const head = Buffer.alloc(HEAD_BYTES);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(text.length, 8);
  const file = await open(path, 'w');
  try {
    await file.write(head);
    await file.write(text);
    await file.write(Buffer.alloc(pad(HEAD_BYTES + text.length)));
    for (const a of arrays) {
      await file.write(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      await file.write(Buffer.alloc(pad(a.byteLength)));
    }
  } finally {
    await file.close();
  }
}

async function readSnapshot(path: string): Promise<ToolboxSnapshot> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    await readFully(file, head, 0);
    if (head.toString('latin1', 0, 8) !== MAGIC) throw new Error('not a kept index');
    const length = head.readUInt32LE(8);
    const text = Buffer.alloc(length);
    let at = HEAD_BYTES + (await readFully(file, text, HEAD_BYTES));
    at += pad(at);
    const json = text.toString('utf8');
    const arrays = arraysOfChunks(json).map(({ type, length: n }) => newKeptArray(type, n));
    for (const a of arrays) {
      at += await readFully(file, new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
      at += pad(at);
    }
    return snapshotFromChunks({ json, arrays });
  } finally {
    await file.close();
  }
}

/** Fills `into` from `position`; returns its length, or throws when the file ends first. */
async function readFully(file: Awaited<ReturnType<typeof open>>, into: Uint8Array, position: number): Promise<number> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await file.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw new Error('a kept index ends early');
    done += bytesRead;
  }
  return into.length;
}

/** Bytes up to the next multiple of 8 (every array starts aligned for its element type). */
const pad = (n: number) => (8 - (n % 8)) % 8;

/** Keeps the `maxEntries` most recently used snapshots; removes the rest and stale temporary files. */
async function evict(dir: string, maxEntries: number): Promise<void> {
  const names = await readdir(dir);
  const kept = await Promise.all(
    names
      .filter((n) => n.endsWith(SUFFIX))
      .map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  kept.sort((a, b) => b.t - a.t);
  for (const { n } of kept.slice(maxEntries)) await rm(join(dir, n), { force: true });
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const n of names.filter((x) => x.endsWith('.tmp'))) {
    const t = (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? Infinity;
    if (t < dayAgo) await rm(join(dir, n), { force: true });
  }
}
