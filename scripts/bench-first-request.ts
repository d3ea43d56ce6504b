/**
 * Time to the first model request on a large file (issue 26: under 3 s at every size while the
 * indexes are built). As `dowser ask` does it: the engine in a worker thread, the file read as
 * needed, the schema, the build started and not awaited, then the links and the grounding the
 * first request carries (each waiting at most QUESTION_WAITS_FOR_INDEXES_MS), and Auto's
 * prompt text made from them. Then how long the rest of the build takes, and the peak memory of
 * the process (the worker thread included), each file in a fresh process.
 *
 *   npx tsx scripts/bench-first-request.ts <file.sqlite>... [--question "…"]
 */
import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { QUESTION_WAITS_FOR_INDEXES_MS } from '../src/core/engine';
import { groundedSchema } from '../src/core/prompt/grounded-schema';
import { RestartableEngine } from '../src/worker/db-client';
import { spawnNodeDbWorker } from '../src/worker/node/spawn';

const args = process.argv.slice(2);
const at = args.indexOf('--question');
const question = at >= 0 ? args.splice(at, 2)[1] : 'How many states were recorded in the kitchen last month?';

if (args[0] !== '--one') {
  console.log(
    '| file | read | open ms | schema ms | first request ready ms | sampled | build total ms | peak RSS MB |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const file of args)
    process.stdout.write(
      execFileSync('npx', ['tsx', 'scripts/bench-first-request.ts', '--one', file, '--question', question], {
        encoding: 'utf8',
      }),
    );
} else {
  const file = args[1];
  const engine = new RestartableEngine(spawnNodeDbWorker);
  engine.queryTimeoutMs = 30 * 60_000;
  try {
    const t0 = performance.now();
    const report = await engine.open({ id: 'f', name: basename(file), bytes: { path: resolve(file) } });
    const openMs = performance.now() - t0;
    const schema = await engine.introspect('f');
    const schemaMs = performance.now() - t0;
    const build = engine.buildTools('f');
    const wait = { waitMs: QUESTION_WAITS_FOR_INDEXES_MS };
    const links = await engine.linkQuestion('f', question, wait);
    const grounding = await engine.grounding('f', wait);
    const prompt = groundedSchema(schema, grounding, { level: 'full', question });
    const readyMs = performance.now() - t0;
    await build;
    const builtMs = performance.now() - t0;
    console.log(
      `| ${basename(file)} | ${report.readFrom} | ${Math.round(openMs)} | ${Math.round(schemaMs)} | ${Math.round(readyMs)} | ${grounding.sampledRows ? `first ${grounding.sampledRows} rows` : 'no (indexes ready)'} | ${Math.round(builtMs)} | ${Math.round(process.resourceUsage().maxRSS / 1024)} |`,
    );
    if (!prompt.text || links.length < 0) throw new Error('no prompt');
  } finally {
    engine.dispose();
  }
}
