import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, notesSql, SHOP_SQL } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { buildToolbox, toolboxFromSnapshot, type Toolbox } from './toolbox';
import {
  arraysOfChunks,
  fromSnapshot,
  newKeptArray,
  snapshotFromChunks,
  snapshotToChunks,
  toolboxKey,
  type ToolboxSnapshot,
} from './toolbox-snapshot';

async function builtToolbox() {
  const engine = await createNodeEngine();
  await engine.open({ id: 'd', name: 'd', bytes: await buildDb(SHOP_SQL + notesSql(3000)) });
  const exec = executorFor(engine, 'd');
  const schema = await engine.introspect('d');
  return { exec, schema, toolbox: await buildToolbox(exec, schema) };
}

/** The snapshot as a store gives it back: JSON text and arrays copied, nothing shared with the build. */
/** A snapshot as the engine keeps it: with its file's checksum (none here: no file). */
const withContent = (s: Omit<ToolboxSnapshot, 'content'>): ToolboxSnapshot => ({
  ...s,
  content: { algorithm: 'none', digest: '', sizeBytes: 0 },
});

function throughStorage(s: ToolboxSnapshot): ToolboxSnapshot {
  const { json, arrays } = snapshotToChunks(s);
  const text = JSON.parse(JSON.stringify(json)) as string;
  const copies = arraysOfChunks(text).map(({ type, length }, i) => {
    const a = newKeptArray(type, length);
    a.set(arrays[i] as never);
    return a;
  });
  return snapshotFromChunks({ json: text, arrays: copies });
}

/** What the tools answer, for queries of every kind: exact values, typos, codes, words of long texts. */
async function answers(t: Toolbox, queries: string[]) {
  const out: string[] = [];
  for (const q of queries) {
    out.push((await t.call('search_value', { query: q })).observation);
    out.push((await t.call('search_value', { query: q, table: 'notes', column: 'body' })).observation);
    out.push((await t.call('search_column', { query: q })).observation);
    out.push(JSON.stringify(t.link(`orders from ${q}`)));
  }
  out.push((await t.call('find_shortest_path', { from_table: 'orders', to_table: 'customers' })).observation);
  out.push(JSON.stringify(await t.grounding()));
  return out;
}

describe('toolbox snapshots (indexes kept between visits, issue 26)', () => {
  it('make a toolbox that answers every tool as the build did', async () => {
    const { exec, schema, toolbox } = await builtToolbox();
    const author = toolbox.values.topValues('notes', 'author', 1)![0].value;
    const code = toolbox.values.topValues('notes', 'code', 1)![0].value;
    const word = author.split(' ')[0];
    const typo = word.slice(0, 2) + word.slice(3);
    const queries = [
      'Paris',
      'paid',
      author,
      code,
      code.slice(2),
      word,
      typo,
      'Ünterwegs',
      'unterwegs',
      'nothing like it',
    ];
    const before = await answers(toolbox, queries);
    expect(before.join('\n')).toContain(author);

    const restored = await toolboxFromSnapshot(exec, schema, throughStorage(withContent(toolbox.snapshot())));
    expect(restored.reused).toBe(true);
    expect(toolbox.reused).toBe(false);
    expect(await answers(restored, queries)).toEqual(before);
    expect(restored.values.size).toBe(toolbox.values.size);
    expect(restored.values.columns).toEqual(toolbox.values.columns);
    expect([...restored.stats]).toEqual([...toolbox.stats]);
    expect(restored.inferredKeys).toEqual(toolbox.inferredKeys);
    expect(restored.timings).toEqual(toolbox.timings);
  });

  it('refuse a snapshot of another format or with an array missing', async () => {
    const { toolbox } = await builtToolbox();
    const s = toolbox.snapshot();
    expect(() => fromSnapshot({ ...s, format: 0 })).toThrow(/format/);
    const { json, arrays } = snapshotToChunks(withContent(s));
    expect(() => snapshotFromChunks({ json, arrays: arrays.slice(1) })).toThrow(/array/);
    const shortCounts = { ...s, values: { ...s.values, values: { ...s.values.values, counts: new Uint32Array(1) } } };
    expect(() => fromSnapshot(shortCounts)).toThrow(/damaged/);
  });

  it('damaged anywhere, either refuse to load or still answer: never hang', async () => {
    const { exec, schema, toolbox } = await builtToolbox();
    const s = toolbox.snapshot();
    const { json, arrays } = snapshotToChunks(withContent(s));
    let refused = 0;
    for (const fill of [0, 0xff]) {
      for (let i = 0; i < arrays.length; i++) {
        const damaged = arrays.map((a, j) => {
          const copy = a.slice();
          if (j === i) new Uint8Array(copy.buffer).fill(fill);
          return copy;
        });
        let restored: Toolbox;
        try {
          restored = await toolboxFromSnapshot(exec, schema, snapshotFromChunks({ json, arrays: damaged }));
        } catch {
          refused++;
          continue;
        }
        // Damage the checks let through may change answers, but every tool still returns.
        for (const q of ['Paris', 'paid', 'N-0', 'marbel', 'mrabel'])
          await restored.call('search_value', { query: q }).catch(() => undefined);
        restored.link('customers in Paris');
      }
    }
    expect(refused).toBeGreaterThan(arrays.length);
  });

  it('are keyed by the file and the options: any change gives another key', () => {
    const head = new Uint8Array(4096).fill(7);
    const file = { sizeBytes: 1 << 20, modifiedMs: 1_700_000_000_000, head };
    const key = toolboxKey(file, { valueCellBudget: 16e6 });
    expect(key).toMatch(/^[A-Za-z0-9-]+$/);
    expect(toolboxKey({ ...file, head: head.slice() }, { valueCellBudget: 16e6 })).toBe(key);
    const changedHead = head.slice();
    changedHead[27] = 8; // SQLite's file change counter
    const others = [
      toolboxKey({ ...file, head: changedHead }, { valueCellBudget: 16e6 }),
      toolboxKey({ ...file, modifiedMs: file.modifiedMs + 1000 }, { valueCellBudget: 16e6 }),
      toolboxKey({ ...file, sizeBytes: file.sizeBytes + 4096 }, { valueCellBudget: 16e6 }),
      toolboxKey(file, { valueCellBudget: null }),
      toolboxKey(file, { valueCellBudget: 1e6 }),
    ];
    expect(new Set([key, ...others]).size).toBe(6);
  });
});
