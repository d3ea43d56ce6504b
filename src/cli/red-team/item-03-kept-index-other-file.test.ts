// Red team, issue 35, item 3: another file got this file's kept index when its size, modification
// time and first 64 KiB agreed (`cp -p`, `touch -r`, archives, coarse timestamps): B's search
// returned A's values, "kept from the last opening of this file". The cheap identity is only the
// lookup key now; reuse is confirmed by a checksum of the whole file.

import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CROP_A,
  CROP_B,
  foundCrop,
  keepIndexOf,
  keptNames,
  searchValue,
  tempFolder,
  writeCropsDb,
  writeTwinWithOtherCrop,
} from './kept-fixtures';

const temp = tempFolder('dowser-red-team-03-');
const cache = join(temp.dir, 'cache');
const a = join(temp.dir, 'a.sqlite');
const b = join(temp.dir, 'b.sqlite');

beforeAll(async () => {
  await writeCropsDb(a);
  writeTwinWithOtherCrop(a, b);
});
afterAll(() => temp.remove());

describe('red team 35, item 3: a kept index is never another file’s', () => {
  it('a twin with the same size, time and first 64 KiB gets its own index, not the first file’s', async () => {
    // The attack is real: the lookup key cannot tell the files apart.
    expect(statSync(b).size).toBe(statSync(a).size);
    expect(statSync(b).mtimeMs).toBe(statSync(a).mtimeMs);

    // A's index, kept as its last run left it.
    await keepIndexOf(a, cache);

    // B holds CROP_B where A holds CROP_A: its search finds its own value, never A's.
    const twin = await searchValue(b, CROP_B, { cache });
    expect(twin.code).toBe(0);
    expect(twin.stdout).toContain(foundCrop(CROP_B));
    expect(twin.stderr).not.toMatch(/kept from the last/i);
    const aValueInB = await searchValue(b, CROP_A, { cache });
    expect(aValueInB.code).toBe(0);
    expect(aValueInB.stdout).not.toContain(foundCrop(CROP_A));

    // B's index replaced A's under the key they share: B reuses it, A is checked and built again.
    expect(keptNames(cache).filter((n) => n.endsWith('.index'))).toHaveLength(1);
    expect(aValueInB.stderr).toMatch(/kept from the last run/i);
    const again = await searchValue(a, CROP_A, { cache });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(foundCrop(CROP_A));
    expect(again.stderr).not.toMatch(/kept from the last/i);
  }, 120_000);
});
