/**
 * What tokenizing long texts in a second thread would save (decision 013's next step), before
 * building it into the engine: the values are read and the value index built as `buildTools`
 * does, once on one thread and once with every long text (over 100 characters) posted in batches
 * of 5,000 to a worker thread that counts and tokenizes them meanwhile. The merge is estimated by
 * interning the worker's words into a vocabulary. A third way also sends each short value seen
 * for the first time to the worker, which tokenizes it there (the engine's thread only counts).
 * Statistics and keys are left out (the same on every side).
 *
 *   npx tsx scripts/measure-text-worker.ts --db <file.sqlite> [--runs 2]
 */
import { Worker } from 'node:worker_threads';
import { createNodeEngine } from '../src/adapters/sqljs/node';
import { executorFor } from '../src/core/executor';
import { extractValues, type ValueSink } from '../src/core/retrieval/distinct-values';
import { SHORT_VALUE, ValueIndexBuilder } from '../src/core/retrieval/value-index';
import { ValueCounter } from '../src/core/retrieval/value-store';
import { isDateLike } from '../src/core/retrieval/value-text';
import { Vocabulary } from '../src/core/retrieval/value-vocab';

const at = process.argv.indexOf('--db');
if (at < 0) throw new Error('usage: scripts/measure-text-worker.ts --db <file.sqlite> [--runs 2]');
const file = process.argv[at + 1];
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : 2;
const engine = await createNodeEngine();
await engine.open({ id: 'b', name: file, bytes: { path: file } });
const schema = await engine.introspect('b');
const exec = executorFor(engine, 'b');
const ms = (t: number) => Math.round(t);

async function oneThread(): Promise<string> {
  const t0 = performance.now();
  const builder = new ValueIndexBuilder();
  await extractValues(exec, schema, builder);
  await builder.finish();
  return `one thread ${ms(performance.now() - t0)} ms`;
}

async function twoThreads(): Promise<string> {
  const t0 = performance.now();
  const worker = new Worker(new URL('./text-worker-experiment.worker.mjs', import.meta.url));
  await new Promise((r) => worker.once('online', r));
  const started = performance.now();
  const builder = new ValueIndexBuilder();
  let batch = { texts: [] as string[], rowids: [] as number[], cols: [] as number[] };
  let posting = 0;
  let columns = 0;
  const flush = () => {
    if (batch.texts.length === 0) return;
    const t = performance.now();
    worker.postMessage({ type: 'batch', ...batch });
    posting += performance.now() - t;
    batch = { texts: [], rowids: [], cols: [] };
  };
  const sink: ValueSink = {
    column(table, column, hasRowid) {
      const inner = builder.column(table, column, hasRowid);
      const n = columns++;
      return {
        add(v, id) {
          if (v.length <= SHORT_VALUE || id === null || !hasRowid || isDateLike(v)) return inner.add(v, id);
          batch.texts.push(v);
          batch.rowids.push(id);
          batch.cols.push(n);
          if (batch.texts.length === 5000) flush();
        },
        other: (v) => inner.other(v),
        done: (rows) => {
          flush();
          inner.done(rows);
        },
      };
    },
  };
  await extractValues(exec, schema, sink);
  const read = performance.now();
  await builder.finish();
  const finished = performance.now();
  worker.postMessage({ type: 'finish' });
  const result = (await new Promise((r) => worker.once('message', r))) as { busy: number; words: string[] };
  const joined = performance.now();
  const vocab = new Vocabulary();
  for (const w of result.words) if (w) vocab.tokenize(w);
  const merge = performance.now() - joined;
  await worker.terminate();
  return (
    `two threads ${ms(joined - t0 + merge)} ms: start ${ms(started - t0)}, read + short values ${ms(read - started)}` +
    ` (posting ${ms(posting)}), short values' index ${ms(finished - read)}, waiting ${ms(joined - finished)},` +
    ` worker busy ${ms(result.busy)}, merge about ${ms(merge)} (${result.words.length} terms)`
  );
}

async function shortValuesToo(): Promise<string> {
  const t0 = performance.now();
  const worker = new Worker(new URL('./text-worker-experiment.worker.mjs', import.meta.url));
  await new Promise((r) => worker.once('online', r));
  const counter = new ValueCounter();
  let batch = { texts: [] as string[], rowids: [] as number[], cols: [] as number[] };
  let fresh: string[] = [];
  let columns = 0;
  const flush = () => {
    if (batch.texts.length > 0) worker.postMessage({ type: 'batch', ...batch });
    if (fresh.length > 0) worker.postMessage({ type: 'values', values: fresh });
    batch = { texts: [], rowids: [], cols: [] };
    fresh = [];
  };
  const sink: ValueSink = {
    column(_table, _column, hasRowid) {
      const n = columns++;
      return {
        add(v, id) {
          if (isDateLike(v)) return;
          if (v.length <= SHORT_VALUE || id === null || !hasRowid) {
            const next = counter.size;
            if (counter.add(v, n) === next) fresh.push(v);
            if (fresh.length === 5000) flush();
            return;
          }
          batch.texts.push(v);
          batch.rowids.push(id);
          batch.cols.push(n);
          if (batch.texts.length === 5000) flush();
        },
        other: () => {},
        done: () => flush(),
      };
    },
  };
  await extractValues(exec, schema, sink);
  counter.freeze();
  const read = performance.now();
  worker.postMessage({ type: 'finish' });
  const result = (await new Promise((r) => worker.once('message', r))) as { busy: number; words: string[] };
  const joined = performance.now();
  await worker.terminate();
  return `short values too ${ms(joined - t0)} ms: read + counting ${ms(read - t0)}, waiting ${ms(joined - read)}, worker busy ${ms(result.busy)}`;
}

for (let run = 1; run <= runs; run++)
  console.log(`run ${run}: ${await oneThread()}; ${await twoThreads()}; ${await shortValuesToo()}`);
