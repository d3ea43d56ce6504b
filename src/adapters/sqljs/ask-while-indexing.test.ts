// Asking while the indexes are built (issue 26): the engine answers a question's grounding and
// links between the pages of the build, from each table's first rows and the names, instead of
// waiting for every value to be read; without a wait limit it waits for the whole build.

import { describe, expect, it } from 'vitest';
import type { DbEngine } from '../../core/engine';
import { groundedSchema } from '../../core/prompt/grounded-schema';
import { buildDb } from '../../test-support/build-db';
import { RestartableEngine } from '../../worker/db-client';
import { spawnNodeDbWorker } from '../../worker/node/spawn';
import { createNodeEngine } from './node';

const ROWS = 400_000;
const SQL = `CREATE TABLE visits (id INTEGER PRIMARY KEY, city TEXT, note TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
INSERT INTO visits SELECT i, CASE i % 3 WHEN 0 THEN 'Oslo' WHEN 1 THEN 'Lima' ELSE 'Pune' END,
  'visit ' || i || ' ' || hex(randomblob(6)) FROM n;
UPDATE visits SET city = 'Quito' WHERE id = ${ROWS};`;

const transports: Array<[string, () => Promise<DbEngine & { dispose?: () => void }>]> = [
  ['in process', createNodeEngine],
  ['through the worker', async () => new RestartableEngine(spawnNodeDbWorker)],
];

describe.each(transports)('a question during the build, %s', (_name, make) => {
  it('gets sampled values and name links before the build ends, full ones after it', async () => {
    const engine = await make();
    try {
      await engine.open({ id: 'v', name: 'visits.sqlite', bytes: await buildDb(SQL) });
      const order: string[] = [];
      // Where the build was when the grounding came back: still reading values, not after them.
      let read = 0;
      const build = engine
        .buildTools('v', {}, (p) => {
          if (p.stage === 'values') read = p.done;
        })
        .then(() => order.push('build'));
      const grounding = await engine.grounding('v', { waitMs: 0 });
      order.push('grounding');
      expect(read).toBeLessThan(ROWS);
      const links = await engine.linkQuestion('v', 'visits to Quito by city', { waitMs: 0 });
      order.push('links');
      await build;
      expect(order).toEqual(['grounding', 'links', 'build']);

      expect(grounding.sampledRows).toBe(10_000);
      const city = grounding.stats.find((s) => s.column === 'city')!;
      expect([city.approximate, city.rowsScanned]).toEqual([true, 10_000]);
      // Quito is in the last row only: the sample cannot know it, and the prompt says so.
      expect(city.categories?.map((c) => c.value)).not.toContain('Quito');
      const schema = await engine.introspect('v');
      expect(groundedSchema(schema, grounding, { level: 'full', question: '' }).notes.join(' ')).toContain(
        'first 10000 rows of each table',
      );
      expect(links.some((l) => l.kind === 'value')).toBe(false);
      expect(links.some((l) => l.table === 'visits')).toBe(true);

      // Once built: every row's values, and the value link.
      const full = await engine.grounding('v', { waitMs: 0 });
      expect(full.sampledRows).toBeUndefined();
      expect(full.stats.find((s) => s.column === 'city')!.rowsScanned).toBe(ROWS);
      const after = await engine.linkQuestion('v', 'visits to Quito by city', { waitMs: 0 });
      expect(after.some((l) => l.kind === 'value' && l.column === 'city')).toBe(true);
    } finally {
      engine.dispose?.();
    }
  }, 60_000);
});

describe('tool calls during the build (issue 38, item 2)', () => {
  it('SQL runs before the build ends; a search that needs the indexes says they are not ready', async () => {
    const engine = await createNodeEngine({ toolWaitMs: 0 });
    await engine.open({ id: 'v', name: 'visits.sqlite', bytes: await buildDb(SQL) });
    let built = false;
    const build = engine.buildTools('v').then(() => (built = true));
    const sql = await engine.callTool('v', 'execute_sql', { sql: "SELECT count(*) FROM visits WHERE city = 'Quito'" });
    expect(built).toBe(false);
    expect(sql.ok).toBe(true);
    expect(sql.observation).toContain('1');
    const search = await engine.callTool('v', 'search_value', { query: 'Quito' });
    expect(built).toBe(false);
    expect(search.ok).toBe(false);
    expect(search.observation).toMatch(/still being built.*Use execute_sql meanwhile/);
    await build;
    const after = await engine.callTool('v', 'search_value', { query: 'Quito' });
    expect(after.ok).toBe(true);
    expect(after.observation).toContain('Quito');
  }, 60_000);

  it('through the worker, a search waits for a build that ends within its wait', async () => {
    const engine = new RestartableEngine(spawnNodeDbWorker);
    try {
      await engine.open({ id: 'v', name: 'visits.sqlite', bytes: await buildDb(SQL) });
      const build = engine.buildTools('v');
      const search = await engine.callTool('v', 'search_value', { query: 'Quito' });
      expect(search.ok).toBe(true);
      expect(search.observation).toContain('Quito');
      await build;
    } finally {
      engine.dispose();
    }
  }, 60_000);
});
