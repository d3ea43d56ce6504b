// Fixtures of the kept-index red-team cases (issue 35, items 3, 4, 5, 16): a database whose
// telling values lie past its first 64 KiB, a twin that differs only there (same size, same
// first bytes, the same modification time: what `cp -p`, `touch -r` or an archive make), and the
// real program run in a child process (a crash, a umask and an exit are a process's, not a test's).

import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileToolboxStore, indexFolderOf } from '../../adapters/kept-indexes/file-store';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, notesSql } from '../../test-support/build-db';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** The bytes of a file's start that the kept index's lookup key reads (engine.ts IDENTITY_HEAD_BYTES). */
export const HEAD_BYTES = 64 * 1024;

/** One crop per file: A's and its twin's, of the same length so the twin has the same size. */
export const CROP_A = 'Aubergines';
export const CROP_B = 'Bergamotes';

/** What search-value prints when it finds `crop` (its "No values match" names the query too). */
export const foundCrop = (crop: string) => `"${crop}" in crops.crop (1 row)`;

/**
 * A database of notes, then a table of crops written last (so its pages lie past the first
 * 64 KiB) naming `crop`. `rows` notes: enough text cells to be kept with DOWSER_KEEP_FROM_CELLS=0,
 * and an index file that takes a moment to write.
 */
export async function writeCropsDb(path: string, rows = 4000): Promise<void> {
  const crops = ['Wenna Holloway', 'Idris Castellane', 'Maud Penhallow']
    .map((grower, i) => `(${i + 1}, '${grower}', '${i === 1 ? CROP_A : 'Turnips'}')`)
    .join(', ');
  const sql = `${notesSql(rows, 11)}
CREATE TABLE crops (id INTEGER PRIMARY KEY, grower TEXT, crop TEXT);
INSERT INTO crops VALUES ${crops};`;
  writeFileSync(path, await buildDb(sql));
}

/**
 * `b`: `a` with CROP_A changed to CROP_B past the first 64 KiB, and `a`'s modification time. Same
 * size, same first 64 KiB, same time: the lookup key cannot tell them apart; only the content can.
 */
export function writeTwinWithOtherCrop(a: string, b: string): void {
  const bytes = readFileSync(a);
  const from = Buffer.from(CROP_A, 'utf8');
  let changed = 0;
  for (let at = bytes.indexOf(from, HEAD_BYTES); at >= 0; at = bytes.indexOf(from, at + 1)) {
    bytes.write(CROP_B, at, 'utf8');
    changed++;
  }
  if (changed === 0) throw new Error(`fixture: ${CROP_A} is not past the first ${HEAD_BYTES} bytes`);
  if (bytes.subarray(0, HEAD_BYTES).indexOf(from) >= 0) throw new Error('fixture: the crop is in the first bytes');
  writeFileSync(b, bytes);
  execFileSync('touch', ['-r', a, b]); // to the nanosecond, as the report did it
}

export interface DowserRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** The cache folder (DOWSER_CACHE) of this run. */
  cache: string;
  /** The process's umask (default 022, the usual one: group and others may read new files). */
  umask?: string;
  env?: Record<string, string>;
}

/**
 * `dowser <args>` as a real process (bin/dowser.mjs), its indexes kept in `cache` whatever their
 * size (DOWSER_KEEP_FROM_CELLS=0, the test knob), under a given umask.
 */
export function runDowser(args: string[], options: RunOptions): Promise<DowserRun> {
  const child = spawn(
    '/bin/sh',
    [
      '-c',
      `umask ${options.umask ?? '022'} && exec "$0" "$@"`,
      process.execPath,
      join(repoRoot, 'bin/dowser.mjs'),
      ...args,
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, DOWSER_CACHE: options.cache, DOWSER_KEEP_FROM_CELLS: '0', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `dowser tools search-value --db <db> <query>`. */
export const searchValue = (db: string, query: string, options: RunOptions) =>
  runDowser(['tools', 'search-value', '--db', db, query], options);

/** The folder the CLI keeps index files in, under a cache folder. */
export const indexFolder = indexFolderOf;

/** The names in the index folder ([] when there is none yet). */
export function keptNames(cache: string): string[] {
  try {
    return readdirSync(indexFolder(cache)).sort();
  } catch {
    return [];
  }
}

/**
 * Keeps `db`'s index in `cache` as a CLI run would (same key: a path, the default budget), from
 * this process: a test of reusing a kept index does not depend on a one-shot run keeping one.
 */
export async function keepIndexOf(db: string, cache: string): Promise<string> {
  const engine = await createNodeEngine({ toolboxStore: fileToolboxStore(cache), keepFromCells: 0 });
  await engine.open({ id: 'seed', name: 'seed', bytes: { path: db } });
  await engine.buildTools('seed');
  // The engine writes it after the build, without waiting: wait for that write, not the clock.
  const state = await engine.finishKeeping('seed');
  await engine.close('seed');
  const name = keptNames(cache).find((n) => n.endsWith('.index'));
  if (state !== 'kept' || !name) throw new Error(`fixture: the index was not kept (${state})`);
  return join(indexFolder(cache), name);
}

export { tempFolder } from '../../test-support/temp-folder';
