// A temporary folder for one test file's fixtures, and its removal.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempFolder {
  dir: string;
  /** Writes `name` in the folder and returns its path. */
  write(name: string, content: string | Uint8Array): string;
  remove(): void;
}

/** A new folder under the system's temporary one, named from `prefix`. */
export function tempFolder(prefix: string): TempFolder {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
