// Red team, issue 35, item 4: kept-index files were readable by every local user (drwxr-xr-x,
// -rw-r--r-- under umask 022) and hold the file's values in clear. The folder is 0700 and each
// file 0600 whatever the umask, and a folder left open by an older version is closed again.

import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROP_A, indexFolder, searchValue, tempFolder, writeCropsDb } from './kept-fixtures';

const temp = tempFolder('dowser-red-team-04-');
const db = join(temp.dir, 'crops.sqlite');
beforeAll(() => writeCropsDb(db));
afterAll(() => temp.remove());

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('red team 35, item 4: kept indexes are the owner’s only', () => {
  for (const umask of ['022', '000'])
    it(`under umask ${umask}: the folder is 0700, the index file 0600`, async () => {
      const cache = join(temp.dir, `cache-${umask}`);
      const run = await searchValue(db, CROP_A, { cache, umask });
      expect(run.code).toBe(0);
      const names = readdirSync(indexFolder(cache));
      expect(names.filter((n) => n.endsWith('.index'))).toHaveLength(1);
      expect(mode(indexFolder(cache))).toBe('700');
      for (const n of names) expect(mode(join(indexFolder(cache), n))).toBe('600');
    }, 60_000);

  it('a folder an older version left readable by others is closed when an index is written', async () => {
    const cache = join(temp.dir, 'cache-old');
    mkdirSync(indexFolder(cache), { recursive: true });
    chmodSync(indexFolder(cache), 0o755);
    const run = await searchValue(db, CROP_A, { cache });
    expect(run.code).toBe(0);
    expect(mode(indexFolder(cache))).toBe('700');
  }, 60_000);
});
