/**
 * Opening a large file again with its indexes kept (issue 26: "reopening the same file is
 * instant"). As `dowser ask` does it (the engine in a worker thread, DOWSER_CACHE naming a fresh
 * folder): a first process opens the file, builds the indexes and keeps them; a second opens it
 * again and gets them from the folder (its checksum taken again first, issue 35). Each in a
 * fresh process, for its peak memory.
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
  console.log('| file | visit | ready ms | reused | checksum ms | kept file MB | written after ms | peak RSS MB |');
  console.log('|---|---|---|---|---|---|---|---|');
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
    // The file's checksum (issue 35): before a kept index is used, and before one is written.
    const checksum = { from: NaN, to: NaN };
    const seen = () => {
      if (Number.isNaN(checksum.from)) checksum.from = performance.now();
      checksum.to = performance.now();
    };
    const summary = await engine.buildTools('f', {}, (p) => p.stage === 'checking' && seen());
    const readyMs = performance.now() - t0;
    // The first visit keeps the snapshot after the build (the file's checksum, then the write),
    // without making the answer wait; a CLI command waits for it before it exits (finishKeeping).
    let writtenMs = NaN;
    if (visit === 'first') {
      const state = await engine.finishKeeping('f', (p) => p.phase === 'checksum' && seen());
      if (state !== 'kept') throw new Error(`not kept: ${state}`);
      writtenMs = performance.now() - t0 - readyMs;
    }
    const kept = keptFiles(dir);
    const mb = kept.length ? statSync(join(dir, 'indexes', kept[0])).size / 1024 ** 2 : 0;
    // A search, so the reused index is proved usable.
    await engine.callTool('f', 'search_value', { query: 'kitchen' });
    console.log(
      `| ${basename(file)} | ${visit} | ${Math.round(readyMs)} | ${summary.reused} | ${Math.round(checksum.to - checksum.from)} | ${Math.round(mb)} | ${Number.isNaN(writtenMs) ? '' : Math.round(writtenMs)} | ${Math.round(process.resourceUsage().maxRSS / 1024)} |`,
    );
  } finally {
    engine.dispose();
  }
}
