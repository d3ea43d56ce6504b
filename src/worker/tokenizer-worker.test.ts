// The tokenizing worker for real (a Node worker thread, as in the CLI): the same searches as
// the same-thread build, a fallback when the worker dies, and no worker left after a cancel.
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../adapters/sqljs/node';
import type { TokenizerWorkers } from '../core/retrieval/value-tokenizer';
import { buildDb, notesSql } from '../test-support/build-db';
import { nodeTokenizerWorkers } from './node/spawn';
import { remoteTokenizer } from './tokenizer-client';

const QUERIES = ['N-00', 'open', 'Ünterwegs', 'unterwegs', 'closd'];

async function engineWith(workers: TokenizerWorkers | undefined, bytes: Uint8Array) {
  const engine = await createNodeEngine(workers ? { tokenizerWorkers: workers } : {});
  await engine.open({ id: 'n', name: 'notes', bytes });
  return engine;
}

/** Counts the workers started and the tokenizers that finished. */
function counted(inner: TokenizerWorkers) {
  const seen = { spawned: 0, finished: 0 };
  const workers: TokenizerWorkers = {
    minCells: inner.minCells,
    spawn() {
      const port = inner.spawn();
      if (!port) return null;
      seen.spawned++;
      return {
        ...port,
        finish: async () => {
          const parts = await port.finish();
          seen.finished++;
          return parts;
        },
      };
    },
  };
  return { workers, seen };
}

describe('the tokenizing worker', () => {
  it('builds the index a same-thread build builds, for every kind of search', async () => {
    const bytes = await buildDb(notesSql(3000));
    const local = await engineWith(undefined, bytes);
    const { workers, seen } = counted(nodeTokenizerWorkers(0));
    const remote = await engineWith(workers, bytes);
    const [a, b] = [await local.buildTools('n'), await remote.buildTools('n')];
    expect(seen).toEqual({ spawned: 1, finished: 1 });
    expect([a.tokenizedIn, b.tokenizedIn]).toEqual(['engine', 'worker']);
    expect(b.valuesIndexed).toBe(a.valuesIndexed);
    expect(b.valuePolicies).toEqual(a.valuePolicies);
    expect(b.columnSentences).toEqual(a.columnSentences); // statistics from the values read
    const authors = await local.query('n', 'SELECT author, body FROM notes WHERE id IN (17, 2999)');
    const words = String(authors.rows[1][1]).split(' ');
    const queries = [
      ...QUERIES,
      String(authors.rows[0][0]),
      String(authors.rows[0][0]).slice(0, -2) + 'xq', // a typo in the last name
      words.slice(3, 6).join(' '), // words inside a long text
      words[4].slice(0, 4), // a cut-short word
    ];
    for (const query of queries) {
      const [x, y] = await Promise.all([
        local.callTool('n', 'search_value', { query }),
        remote.callTool('n', 'search_value', { query }),
      ]);
      expect(y.observation, query).toBe(x.observation);
    }
    const inText = await remote.callTool('n', 'search_value', { query: words.slice(3, 6).join(' ') });
    expect(inText.observation).toContain(words.slice(3, 6).join(' '));
  });

  it('is not started for a small database', async () => {
    const { workers, seen } = counted(nodeTokenizerWorkers());
    const engine = await engineWith(workers, await buildDb(notesSql(200)));
    expect((await engine.buildTools('n')).tokenizedIn).toBe('engine');
    expect(seen.spawned).toBe(0);
  });

  it('falls back to this thread when the worker dies', async () => {
    const bytes = await buildDb(notesSql(1500));
    let died = 0;
    const dying: TokenizerWorkers = {
      minCells: 0,
      spawn() {
        const worker = new Worker('setTimeout(() => process.exit(3), 20)', { eval: true });
        return remoteTokenizer({
          endpoint: nodeEndpoint(worker),
          terminate: () => void worker.terminate(),
          onDeath: (listener) =>
            worker.on('exit', (code) => {
              died++;
              listener(`exit code ${code}`);
            }),
        });
      },
    };
    const local = await engineWith(undefined, bytes);
    const fallback = await engineWith(dying, bytes);
    const [a, b] = [await local.buildTools('n'), await fallback.buildTools('n')];
    expect(died).toBe(1);
    expect(b.tokenizedIn).toBe('engine-after-worker-failed');
    expect(b.valuesIndexed).toBe(a.valuesIndexed);
    const q = { query: 'closed' };
    expect((await fallback.callTool('n', 'search_value', q)).observation).toBe(
      (await local.callTool('n', 'search_value', q)).observation,
    );
  });

  it('is stopped when the build is cancelled', async () => {
    const { buildToolbox } = await import('../core/tools/toolbox');
    const { executorFor } = await import('../core/executor');
    const inner = nodeTokenizerWorkers(0);
    let closed = 0;
    const workers: TokenizerWorkers = {
      minCells: 0,
      spawn() {
        const port = inner.spawn()!;
        return {
          ...port,
          close: () => {
            closed++;
            port.close();
          },
        };
      },
    };
    const engine = await engineWith(undefined, await buildDb(notesSql(3000)));
    const ctrl = new AbortController();
    const build = buildToolbox(executorFor(engine, 'n'), await engine.introspect('n'), {
      tokenizerWorkers: workers,
      signal: ctrl.signal,
      onProgress: (p) => {
        if (p.stage === 'values' && p.done > 0) ctrl.abort();
      },
    });
    await expect(build).rejects.toMatchObject({ code: 'cancelled' });
    expect(closed).toBeGreaterThan(0);
  });
});
