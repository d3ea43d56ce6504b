// Red team, issue 35, item 5: a damaged kept index aborted the CLI on every open (bytes 8-11, the
// JSON's length, set to 0xfffffff0: `Assertion failed: args[3]->IsInt32()`, exit 134) until the
// file was deleted by hand. Every length read from a kept file is checked against the file's
// size before anything is allocated; any damage is a miss, and the index is built and kept again.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROP_A, foundCrop, keepIndexOf, keptNames, searchValue, tempFolder, writeCropsDb } from './kept-fixtures';

const temp = tempFolder('dowser-red-team-05-');
const cache = join(temp.dir, 'cache');
const db = join(temp.dir, 'crops.sqlite');
let keptPath = '';
let good: Buffer;

beforeAll(async () => {
  await writeCropsDb(db);
  keptPath = await keepIndexOf(db, cache);
  good = readFileSync(keptPath);
}, 60_000);
afterAll(() => temp.remove());

/** The JSON's length as the file's header says (bytes 8-11). */
const jsonLength = (bytes: Buffer) => bytes.readUInt32LE(8);

/** Each way a kept file can be damaged: every field of its 16-byte header, its end, its JSON. */
const DAMAGES: Record<string, (bytes: Buffer) => Buffer> = {
  'the magic (bytes 0-7)': (b) => (b.write('NOTINDEX', 0, 'latin1'), b),
  'the JSON length set to 0xfffffff0 (the report)': (b) => (b.writeUInt32LE(0xfffffff0, 8), b),
  'the JSON length one past the file': (b) => (b.writeUInt32LE(b.length - 16 + 1, 8), b),
  'the JSON length a little longer': (b) => (b.writeUInt32LE(jsonLength(b) + 8, 8), b),
  'the JSON length zero': (b) => (b.writeUInt32LE(0, 8), b),
  'the spare bytes (12-15)': (b) => (b.writeUInt32LE((b.readUInt32LE(12) ^ 0x5a5a5a5a) >>> 0, 12), b),
  'the file cut in half': (b) => b.subarray(0, Math.floor(b.length / 2)),
  'the file cut inside the header': (b) => b.subarray(0, 10),
  'the JSON garbled': (b) => (b.fill(0x7b, 16, 24), b),
  'an array length in the JSON made huge': (b) => {
    const json = b.toString('utf8', 16, 16 + jsonLength(b));
    const at = json.indexOf('"length":') + '"length":'.length;
    const digits = /^\d+/.exec(json.slice(at))![0];
    // Same number of characters, so the JSON's length in the header still fits.
    b.write('9'.repeat(digits.length), 16 + Buffer.byteLength(json.slice(0, at)), 'utf8');
    return b;
  },
};

describe('red team 35, item 5: a damaged kept index is a miss, never a crash', () => {
  for (const [damage, apply] of Object.entries(DAMAGES))
    it(`${damage}: the search still answers (exit 0) and the index is built and kept again`, async () => {
      const damaged = apply(Buffer.from(good));
      writeFileSync(keptPath, damaged);
      const run = await searchValue(db, CROP_A, { cache });
      expect({ code: run.code, signal: run.signal, stderr: run.stderr }).toMatchObject({ code: 0, signal: null });
      expect(run.stdout).toContain(foundCrop(CROP_A));
      expect(run.stderr).not.toMatch(/kept from the last/i);
      // The damaged file did not stay: the rebuilt index took its place.
      const now = readFileSync(keptPath);
      expect(now.equals(damaged)).toBe(false);
      expect(keptNames(cache).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    }, 60_000);

  it('after all that, the kept index is whole again: the next run reuses it', async () => {
    const run = await searchValue(db, CROP_A, { cache });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(foundCrop(CROP_A));
    expect(run.stderr).toMatch(/kept from the last run/i);
  }, 60_000);
});
