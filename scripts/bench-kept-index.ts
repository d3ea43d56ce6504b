/**
 * Opening a large file again with its indexes kept (issue 26: "reopening the same file is
 * instant"). As `dowser ask` does it (the engine in a worker thread, DOWSER_CACHE naming a fresh
 * folder): a first process opens the file, builds the indexes and keeps them; a second opens it
 * again and gets them from the folder. Each in a fresh process, for its peak memory.
 *
 *   npx tsx scripts/bench-kept-index.ts <file.sqlite>...
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { RestartableEngine } from '../src/worker/db-client';
import { spawnNodeDbWorker } from '../src/worker/node/spawn';

const args = process.argv.slice(2);

const keptFiles = (dir: string) => {
  try {
    return readdirSync(join(dir, 'indexes')).filter((n) => n.endsWith('.index'));
  } catch {
    return [];
  }
};

if (args[0] !== '--one') {
  console.log('| file | visit | ready ms | reused | kept file MB | written after ms | peak RSS MB |');
  console.log('|---|---|---|---|---|---|---|');
  for (const file of args) {
    const dir = mkdtempSync(join(tmpdir(), 'dowser-kept-bench-'));
    try {
      for (const visit of ['first', 'again'])
        process.stdout.write(
          execFileSync('npx', ['tsx', 'scripts/bench-kept-index.ts', '--one', visit, file], {
            encoding: 'utf8',
            env: { ...process.env, DOWSER_CACHE: dir },
          }),
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
} else {
  const [, visit, file] = args;
  const dir = process.env.DOWSER_CACHE!;
  const engine = new RestartableEngine(spawnNodeDbWorker);
  engine.queryTimeoutMs = 30 * 60_000;
  try {
    const t0 = performance.now();
    await engine.open({ id: 'f', name: basename(file), bytes: { path: resolve(file) } });
    const summary = await engine.buildTools('f');
    const readyMs = performance.now() - t0;
    // The first visit writes the snapshot after the build, without making anyone wait.
    let writtenMs = NaN;
    if (visit === 'first') {
      while (keptFiles(dir).length === 0) await new Promise((r) => setTimeout(r, 50));
      writtenMs = performance.now() - t0 - readyMs;
    }
    const kept = keptFiles(dir);
    const mb = kept.length ? statSync(join(dir, 'indexes', kept[0])).size / 1024 ** 2 : 0;
    // A search, so the reused index is proved usable.
    await engine.callTool('f', 'search_value', { query: 'kitchen' });
    console.log(
      `| ${basename(file)} | ${visit} | ${Math.round(readyMs)} | ${summary.reused} | ${Math.round(mb)} | ${Number.isNaN(writtenMs) ? '' : Math.round(writtenMs)} | ${Math.round(process.resourceUsage().maxRSS / 1024)} |`,
    );
  } finally {
    engine.dispose();
  }
}
