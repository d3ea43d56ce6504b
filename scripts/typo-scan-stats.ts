/**
 * The typo scan on a real file's vocabulary: words by length, time per `near()` call over the
 * words of the bench's typo queries, and how many words pass the letter filters (decision 013).
 *
 *   node --import tsx scripts/typo-scan-stats.ts --db <file.sqlite> --queries <file.queries.json>
 */
import fs from 'node:fs';
import { createNodeEngine } from '../src/adapters/sqljs/node';
import { executorFor } from '../src/core/executor';
import { extractValues } from '../src/core/retrieval/distinct-values';
import { ValueIndexBuilder } from '../src/core/retrieval/value-index';
import { words } from '../src/core/text/normalize';
import type { TypoNeighbours } from '../src/core/retrieval/value-typos';

function arg(name: string): string {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) throw new Error('usage: scripts/typo-scan-stats.ts --db <file.sqlite> --queries <queries.json>');
  return process.argv[at + 1];
}
const engine = await createNodeEngine();
const file = arg('db');
await engine.open({ id: 'b', name: file, bytes: { path: file } });
const builder = new ValueIndexBuilder();
await extractValues(executorFor(engine, 'b'), await engine.introspect('b'), builder);
const index = await builder.finish();
const typos = (index as unknown as { typos: TypoNeighbours }).typos;
console.log(`words in the typo scan: ${typos.size}`);
const queries = JSON.parse(fs.readFileSync(arg('queries'), 'utf8')) as Record<string, Array<{ query: string }>>;
for (const kind of ['typo1', 'typo2']) {
  let calls = 0;
  let ms = 0;
  let found = 0;
  for (const q of (queries[kind] ?? []).slice(0, 30))
    for (const word of words(q.query)) {
      if (word.length < 4) continue;
      const t0 = performance.now();
      found += typos.near(word).length;
      ms += performance.now() - t0;
      calls++;
    }
  console.log(
    `${kind}: ${calls} calls, ${(ms / calls).toFixed(2)} ms a call, ${(found / calls).toFixed(1)} words found a call`,
  );
}
