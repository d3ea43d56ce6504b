import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { executorFor, type SqlExecutor } from '../executor';
import { buildToolbox } from './toolbox';

describe('Toolbox.withDescriptions', () => {
  it('remakes the column index and sentences without reading the database again', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 's', name: 's', bytes: await buildDb(SHOP_SQL) });
    let queries = 0;
    const exec: SqlExecutor = {
      query: (sql, o) => {
        queries++;
        return executorFor(engine, 's').query(sql, o);
      },
    };
    const toolbox = await buildToolbox(exec, await engine.introspect('s'));
    const afterBuild = queries;
    expect(afterBuild).toBeGreaterThan(0);

    const next = await toolbox.withDescriptions(new Map([['orders', new Map([['status', 'the delivery stage']])]]));
    expect(queries).toBe(afterBuild);
    expect(next.stats).toBe(toolbox.stats);
    expect(next.values).toBe(toolbox.values);
    expect(next.graph).toBe(toolbox.graph);
    const status = next.columns.columns[next.columns.indexOf('orders', 'status')!];
    expect(status.description).toBe('the delivery stage');
    expect(status.sentence).toContain('about the delivery stage');
    expect(toolbox.columns.columns[toolbox.columns.indexOf('orders', 'status')!].description).toBeNull();

    const out = await next.call('search_column', { query: 'delivery stage', k: 1 });
    expect(out.observation).toContain('orders.status (TEXT; match 100%) — about "the delivery stage"');
  });
});

describe('long texts indexed in the background', () => {
  const LONG_SQL = `CREATE TABLE tickets (id INTEGER PRIMARY KEY, status TEXT, body TEXT);
    WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5000)
    INSERT INTO tickets SELECT n, CASE n % 2 WHEN 0 THEN 'open' ELSE 'closed' END,
      'Ticket ' || n || ' about ' || CASE n WHEN 4321 THEN 'a squeaky hinge' ELSE 'a parcel' END || ' ' || printf('%.120c', 'x') FROM c;`;

  it('returns working tools first, says which texts are pending, then finds words in them', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 't', name: 't', bytes: await buildDb(LONG_SQL) });
    const texts: number[] = [];
    const summary = await engine.buildTools('t', { longTexts: 'background' }, (p) => {
      if (p.stage === 'texts') texts.push(p.done / p.total);
    });
    expect(summary.longTextsPending).toBe(5000);
    expect(texts.every((f) => f < 1)).toBe(true);
    // Right after the build: short values answer, the long texts are said to be pending.
    const early = await engine.callTool('t', 'search_value', { query: 'squeaky hinge' });
    expect(early.ok && early.observation).toMatch(
      /^No values match "squeaky hinge"\.\nWords inside the long texts of tickets\.body are not searched yet: they are being indexed \(\d+% done\)/,
    );
    const open = await engine.callTool('t', 'search_value', { query: 'open' });
    expect(open.ok && open.observation).toContain('"open" in tickets.status (2500 rows)');
    // Then the texts arrive with progress (stage 'texts') and are searched.
    await expect.poll(() => texts.at(-1), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(
        async () => {
          const out = await engine.callTool('t', 'search_value', { query: 'squeaky hinge' });
          return out.ok ? out.observation : '';
        },
        { timeout: 10_000 },
      )
      .toMatch(
        /^Values matching "squeaky hinge", best first:\n"Ticket 4321 about a squeaky hinge x+…" in tickets\.body \(1 row; the words are in this text\)$/,
      );
  });

  it('by default the build waits for them, and closing the file stops a background build', async () => {
    const engine = await createNodeEngine();
    await engine.open({ id: 't', name: 't', bytes: await buildDb(LONG_SQL) });
    expect((await engine.buildTools('t')).longTextsPending).toBe(0);
    const out = await engine.callTool('t', 'search_value', { query: 'squeaky' });
    expect(out.ok && out.observation).toContain('Ticket 4321 about a squeaky hinge');

    const exec = executorFor(engine, 't');
    const stop = new AbortController();
    const toolbox = await buildToolbox(exec, await engine.introspect('t'), {
      longTexts: 'background',
      longTextsSignal: stop.signal,
    });
    stop.abort();
    await toolbox.longTextsDone;
    const stopped = await toolbox.call('search_value', { query: 'squeaky' });
    expect(stopped.ok && stopped.observation).toContain('are not searched: indexing them stopped (');
  });
});
