// The CLI's kept indexes (issue 26): one file per snapshot in a cache folder
// (DOWSER_CACHE, default $XDG_CACHE_HOME/dowser or ~/.cache/dowser), the newest few kept.
// A file is a 16-byte header, the snapshot's JSON, then its typed arrays as they are in memory,
// so neither writing nor reading copies the index into one more buffer. Written to a temporary
// name and renamed, so a reader never sees half a file. Every failure is a miss: it is a cache.
//
// Issue 35: the files hold the database's values in clear, so the folder is 0700 and each file
// 0600 whatever the umask (item 4). Every length read back is checked against the file's size
// before anything is allocated, and the JSON against a checksum in the header, so a damaged file
// is a miss and is removed, never a crash (item 5). A temporary file never outlives its process:
// removed on every failure, by the CLI at exit (`removeTempFilesOf`), and, for a process that
// died, by the next one to use the folder (item 16).

import { readdirSync, rmSync } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  arraysOfChunks,
  fnv1a,
  keptArrayBytes,
  newKeptArray,
  snapshotFromChunks,
  snapshotToChunks,
  type ToolboxSnapshot,
  type ToolboxStore,
} from '../../core/tools/toolbox-snapshot';

const MAGIC = 'DOWSERIX';
const SUFFIX = '.index';
/** The magic, the JSON's length (u32) and the JSON's FNV-1a (u32). */
const HEAD_BYTES = 16;
/** A snapshot's JSON is its statistics and the arrays' list: megabytes at most. Above this, a damaged length. */
const MAX_JSON_BYTES = 256 * 1024 * 1024;
/** A snapshot has a few dozen arrays. */
const MAX_ARRAYS = 4096;
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
/** `<key>.index.<pid>.<n>.tmp`: whose write it is, so a dead process's can be removed. */
const TEMP = /\.index\.(\d+)(?:\.\d+)?\.tmp$/;

export interface FileToolboxStoreOptions {
  /** Snapshots kept; the least recently used go first. */
  maxEntries?: number;
  /** Told of a write that failed (disk full, no permission), or of a damaged file removed. */
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

/**
 * DOWSER_KEEP_FROM_CELLS (tests and benchmarks only, not in the help): keeps the indexes of
 * databases smaller than KEEP_INDEXES_FROM_CELLS, so a test of keeping needs no million-cell file.
 */
export function keepFromCellsSetting(env: Record<string, string | undefined>): number | undefined {
  const n = Number(env.DOWSER_KEEP_FROM_CELLS);
  return env.DOWSER_KEEP_FROM_CELLS && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** The folder the index files are in, under a cache folder. */
export const indexFolderOf = (folder: string) => join(folder, 'indexes');

let writes = 0;

export function fileToolboxStore(folder: string, options: FileToolboxStoreOptions = {}): ToolboxStore {
  const dir = indexFolderOf(folder);
  const maxEntries = options.maxEntries ?? 4;
  const pathOf = (key: string) => join(dir, `${key}${SUFFIX}`);
  // Once per store (per process): what processes that died left behind.
  let swept: Promise<void> | undefined;
  const sweep = () => (swept ??= removeDeadTempFiles(dir).catch(() => undefined));

  return {
    async get(key) {
      await sweep();
      const path = pathOf(key);
      try {
        const snapshot = await readSnapshot(path);
        // Used now: it is the last to be evicted. A file an older version left open is closed.
        const t = new Date();
        await utimes(path, t, t).catch(() => undefined);
        await chmod(path, FILE_MODE).catch(() => undefined);
        return snapshot;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        // Damaged: removed, so the next opening does not read it again.
        options.onError?.(e);
        await rm(path, { force: true }).catch(() => undefined);
        return null;
      }
    },
    async put(snapshot, onProgress) {
      await sweep();
      const temp = `${pathOf(snapshot.key)}.${process.pid}.${++writes}.tmp`;
      try {
        await mkdir(dir, { recursive: true, mode: FOLDER_MODE });
        // mkdir's mode is masked by the umask, and the folder may be an older version's.
        await chmod(dir, FOLDER_MODE);
        try {
          await writeSnapshot(temp, snapshot, onProgress);
          await rename(temp, pathOf(snapshot.key));
        } catch (e) {
          await rm(temp, { force: true });
          throw e;
        }
        await evict(dir, maxEntries);
        return true;
      } catch (e) {
        options.onError?.(e);
        return false;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true }).catch(() => undefined);
    },
  };
}

async function writeSnapshot(
  path: string,
  snapshot: ToolboxSnapshot,
  onProgress?: (fraction: number) => void,
): Promise<void> {
  const { json, arrays } = snapshotToChunks(snapshot);
  const text = Buffer.from(json, 'utf8');
  const head = Buffer.alloc(HEAD_BYTES);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(text.length, 8);
  head.writeUInt32LE(fnv1a(text), 12);
  const total = arrays.reduce((n, a) => n + a.byteLength, HEAD_BYTES + text.length);
  let written = 0;
  // 'wx': a new file only, created owner-only (then chmod: the umask could have taken bits away).
  const file = await open(path, 'wx', FILE_MODE);
  try {
    await file.chmod(FILE_MODE);
    await file.write(head);
    await file.write(text);
    await file.write(Buffer.alloc(pad(HEAD_BYTES + text.length)));
    written += HEAD_BYTES + text.length;
    onProgress?.(written / total);
    for (const a of arrays) {
      await file.write(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      await file.write(Buffer.alloc(pad(a.byteLength)));
      written += a.byteLength;
      onProgress?.(written / total);
    }
  } finally {
    await file.close();
  }
}

/** Reads a kept file; throws on anything that is not one whole, as written (checked before each allocation). */
async function readSnapshot(path: string): Promise<ToolboxSnapshot> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    if (size < HEAD_BYTES) throw new Error('a kept index shorter than its header');
    const head = Buffer.alloc(HEAD_BYTES);
    await readFully(file, head, 0);
    if (head.toString('latin1', 0, 8) !== MAGIC) throw new Error('not a kept index');
    const length = head.readUInt32LE(8);
    if (length === 0 || length > MAX_JSON_BYTES || HEAD_BYTES + length > size)
      throw new Error('a kept index whose JSON length does not fit the file');
    const text = Buffer.alloc(length);
    let at = HEAD_BYTES + (await readFully(file, text, HEAD_BYTES));
    if (fnv1a(text) !== head.readUInt32LE(12)) throw new Error('a kept index whose JSON was damaged (checksum)');
    at += pad(at);
    const json = text.toString('utf8');
    const wanted = arraysOfChunks(json);
    // Every array's size is checked against what the file holds before one is allocated.
    if (wanted.length > MAX_ARRAYS) throw new Error('a kept index with too many arrays');
    let expected = at;
    for (let i = 0; i < wanted.length; i++) {
      const a = wanted[i];
      const bytes = a ? keptArrayBytes(a.type) : null;
      if (!bytes || !Number.isSafeInteger(a.length) || a.length < 0)
        throw new Error('a kept index with an array of no known type or length');
      expected += a.length * bytes;
      expected += pad(expected);
      if (expected > size) throw new Error('a kept index whose arrays do not fit the file');
    }
    if (expected !== size) throw new Error('a kept index of another size than its arrays');
    const arrays = wanted.map(({ type, length: n }) => newKeptArray(type, n));
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
async function readFully(file: FileHandle, into: Uint8Array, position: number): Promise<number> {
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

/** Keeps the `maxEntries` most recently used snapshots; removes the rest. */
async function evict(dir: string, maxEntries: number): Promise<void> {
  const names = await readdir(dir);
  const kept = await Promise.all(
    names
      .filter((n) => n.endsWith(SUFFIX))
      .map(async (n) => ({ n, t: (await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })),
  );
  kept.sort((a, b) => b.t - a.t);
  for (const { n } of kept.slice(maxEntries)) await rm(join(dir, n), { force: true });
}

/** True while a process of that pid runs (EPERM: it runs, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Temporary files of processes that are gone (killed while writing), and any over a day old (a
 * pid used again by another process). This process's own are not touched: another engine of it
 * may be writing (the CLI removes its own at exit).
 */
async function removeDeadTempFiles(dir: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const n of await readdir(dir)) {
    const pid = TEMP.exec(n)?.[1];
    if (!pid || Number(pid) === process.pid) continue;
    const old = ((await stat(join(dir, n)).catch(() => null))?.mtimeMs ?? Infinity) < dayAgo;
    if (old || !alive(Number(pid))) await rm(join(dir, n), { force: true });
  }
}

/**
 * Removes the temporary files of process `pid` (synchronous: for an exit handler). A worker
 * thread ended mid-write (Ctrl-C, a restart) runs no cleanup of its own; its files carry the pid.
 */
export function removeTempFilesOf(folder: string, pid: number): void {
  const dir = indexFolderOf(folder);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (TEMP.exec(n)?.[1] === String(pid)) rmSync(join(dir, n), { force: true });
}
