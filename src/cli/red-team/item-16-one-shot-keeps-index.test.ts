// Red team, issue 35, item 16: one-shot CLI runs never kept an index. `dowser tools search-value`
// answered and exited while the index was still being written, leaving `<key>.index.<pid>.tmp`
// and no kept index, so every run built it again and left another temporary file. A command now
// finishes keeping the index before it exits (Ctrl-C skips it), and temporary files of processes
// that are gone are removed when the next one starts.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROP_A, foundCrop, indexFolder, keptNames, searchValue, tempFolder, writeCropsDb } from './kept-fixtures';

const temp = tempFolder('dowser-red-team-16-');
const db = join(temp.dir, 'crops.sqlite');
beforeAll(() => writeCropsDb(db, 12_000));
afterAll(() => temp.remove());

/** The pid of a process that has ended (it cannot be writing anything any more). */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  return new Promise((resolve) => child.on('exit', () => resolve(child.pid!)));
}

describe('red team 35, item 16: a one-shot run keeps its index', () => {
  it('dowser tools search-value exits with the index kept and no temporary file; the next run reuses it', async () => {
    const cache = join(temp.dir, 'cache');
    const first = await searchValue(db, CROP_A, { cache });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(foundCrop(CROP_A));
    expect(first.stderr).toMatch(/Kept the search index for the next run/);
    const names = keptNames(cache);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(names.filter((n) => n.endsWith('.index'))).toHaveLength(1);

    const second = await searchValue(db, CROP_A, { cache });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/kept from the last run/i);
    expect(second.stderr).not.toMatch(/Keeping the search index|Kept the search index/);
    expect(keptNames(cache)).toEqual(names);
  }, 120_000);

  it('a temporary file of a process that is gone is removed at the next start; a live one’s is left', async () => {
    const cache = join(temp.dir, 'cache-stale');
    mkdirSync(indexFolder(cache), { recursive: true });
    const stale = `f3-stale.index.${await deadPid()}.tmp`;
    const live = `f3-live.index.${process.pid}.tmp`;
    for (const n of [stale, live]) writeFileSync(join(indexFolder(cache), n), Buffer.alloc(4096, 1));
    const run = await searchValue(db, CROP_A, { cache });
    expect(run.code).toBe(0);
    const names = keptNames(cache);
    expect(names).not.toContain(stale);
    expect(names).toContain(live);
  }, 120_000);
});
