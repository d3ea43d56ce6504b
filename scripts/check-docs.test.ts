// The docs are a map: every file or folder they name must exist. Names are taken from inline code
// in README.md and docs/**/*.md that look like repository paths (a known top-level folder or a
// file with an extension); globs and placeholders are skipped.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TOP = /^(src|scripts|e2e|docs|bin|public|\.ci)\//;
/** Made by a command on the person's machine, never committed (`npm run models:fetch`, reports). */
const CREATED_LATER = new Set(['public/models/', 'reports/']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Repository paths named in inline code (and in fenced blocks' lines that start with one). */
export function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/`([^`\n]+)`/g)) {
    for (const word of m[1].split(/[\s,;()]+/)) {
      const path = word.replace(/[.:]+$/, '');
      if (!TOP.test(path) || /[*<>{}…|]/.test(path) || path.includes('..')) continue;
      out.add(path);
    }
  }
  return [...out];
}

const docs = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

describe('docs name only paths that exist', () => {
  it('finds paths to check', () => {
    expect(namedPaths('see `src/core/engine.ts` and `a/b`, `src/**/*.ts`, `<dir>/x`')).toEqual(['src/core/engine.ts']);
  });
  for (const doc of docs) {
    it(doc.slice(root.length + 1), () => {
      const missing = namedPaths(readFileSync(doc, 'utf8')).filter(
        (p) => !CREATED_LATER.has(p) && !existsSync(join(root, p)),
      );
      expect(missing).toEqual([]);
    });
  }
});
