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
