// The docs are a map: every file or folder they name must exist. Names are taken from README.md and
// docs/**/*.md: inline code that looks like a repository path, the first word of a fenced block's
// line when it is one, and the targets of relative Markdown links. A name is read the way the docs
// write it: from the repository root (`src/core/engine.ts`), from the doc's own folder
// (`../how-to/add-a-tool.md`, `](decisions/)`), or short for a folder of `src/` or `src/ui/`
// (`core/db/file-check.ts`, `features/ask/`). Globs, placeholders, bare file names and the sibling
// checkout `../shared/` (benchmark data, outside the repository) are skipped.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TOP = /^(src|scripts|e2e|docs|bin|public|\.ci)\//;
/** Made by a command on the person's machine, never committed (`npm run models:fetch`, reports). */
const CREATED_LATER = new Set(['public/models/', 'reports/']);
/** Outside the repository: the benchmark data checked out next to it. */
const OUTSIDE = /^\.\.\/shared\//;

function folders(dir: string): string[] {
  return readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory());
}

/** Folders a doc may name without their parent: `core/…` for `src/core/…`, `features/…` for `src/ui/features/…`. */
const SHORT_ROOTS = [
  ...folders(join(root, 'src')).map((name) => [name, 'src'] as const),
  ...folders(join(root, 'src/ui')).map((name) => [name, 'src/ui'] as const),
];
const SHORT = new RegExp(`^(${SHORT_ROOTS.map(([name]) => name).join('|')})/`);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

function isPath(word: string): boolean {
  if (/[*<>{}…|~]/.test(word) || OUTSIDE.test(word)) return false;
  if (word.startsWith('./') || word.startsWith('../')) return true;
  return !word.includes('..') && (TOP.test(word) || SHORT.test(word));
}

function pathOf(word: string): string {
  return word.replace(/[.:]+$/, '');
}

/** Paths named in inline code, at the start of a fenced block's lines, and as relative link targets. */
export function namedPaths(markdown: string): string[] {
  const out = new Set<string>();
  const fenced = /^```[^\n]*\n([\s\S]*?)^```/gm;
  for (const m of markdown.matchAll(fenced)) {
    for (const line of m[1].split('\n')) {
      const first = pathOf(line.trim().split(/\s+/)[0] ?? '');
      if (TOP.test(first) && isPath(first)) out.add(first);
    }
  }
  const prose = markdown.replace(fenced, '');
  for (const m of prose.matchAll(/`([^`\n]+)`/g)) {
    for (const word of m[1].split(/[\s,;()]+/)) {
      const path = pathOf(word);
      if (isPath(path)) out.add(path);
    }
  }
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].replace(/#.*$/, '');
    if (target !== '' && !/^[a-z]+:/i.test(target) && !target.startsWith('/') && !OUTSIDE.test(target)) {
      out.add(target);
    }
  }
  return [...out];
}

/** Where a named path may be: the repository root, the doc's folder, or `src/` / `src/ui/` for short names. */
export function candidates(path: string, docDir: string): string[] {
  const places = [join(docDir, path)];
  if (TOP.test(path)) places.push(join(root, path));
  for (const [name, parent] of SHORT_ROOTS) if (path.startsWith(`${name}/`)) places.push(join(root, parent, path));
  return places;
}

const docs = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

describe('docs name only paths that exist', () => {
  it('finds paths to check', () => {
    expect(
      namedPaths(
        'see `src/core/engine.ts` and `a/b`, `src/**/*.ts`, `<dir>/x`, `core/sql/`, `../how-to/x.md`, ' +
          '`../shared/datasets`, `dist/`, `x.ts`, [y](decisions/001.md#why), [z](https://e.org/a)\n' +
          '```\nsrc/worker   db.worker.ts\n  sql/ lexer\n```\n',
      ).sort(),
    ).toEqual(['../how-to/x.md', 'core/sql/', 'decisions/001.md', 'src/core/engine.ts', 'src/worker'].sort());
  });
  it('reads a name from the root, the doc folder, or src/ and src/ui/', () => {
    const docDir = join(root, 'docs/how-to');
    expect(candidates('../architecture.md', docDir).some((p) => existsSync(p))).toBe(true);
    expect(candidates('core/engine.ts', docDir).some((p) => existsSync(p))).toBe(true);
    expect(candidates('features/ask/', docDir).some((p) => existsSync(p))).toBe(true);
    expect(candidates('src/core/engine.ts', docDir).some((p) => existsSync(p))).toBe(true);
    expect(candidates('architecture.md', docDir).some((p) => existsSync(p))).toBe(false);
    expect(candidates('../missing.md', docDir).some((p) => existsSync(p))).toBe(false);
  });
  for (const doc of docs) {
    it(doc.slice(root.length + 1), () => {
      const missing = namedPaths(readFileSync(doc, 'utf8')).filter(
        (p) => !CREATED_LATER.has(p) && !candidates(p, dirname(doc)).some((place) => existsSync(place)),
      );
      expect(missing).toEqual([]);
    });
  }
});
