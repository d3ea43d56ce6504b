// A word more values or long texts hold than one search scores (the posting budget of 80,000):
// such a search once found nothing at all, and said "No values match".
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { extractValues } from './distinct-values';
import { ValueIndexBuilder } from './value-index';

describe('a word in most of a column', () => {
  it('finds long texts holding it, read back by rowid', async () => {
    const engine = await createNodeEngine();
    await engine.open({
      id: 'db',
      name: 'db',
      bytes: await buildDb(`
        CREATE TABLE tickets (body TEXT);
        WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 85000)
        INSERT INTO tickets SELECT 'ticket ' || n || ' asks for a refund of the ' || CASE n % 2 WHEN 0 THEN 'courier' ELSE 'parcel' END || ' fee ' || printf('%.80c', 'z') FROM c;`),
    });
    const exec = executorFor(engine, 'db');
    const builder = new ValueIndexBuilder();
    await extractValues(exec, await engine.introspect('db'), builder);
    const index = await builder.finish();
    expect(index.columns[0]).toMatchObject({ texts: 85_000 });
    const hits = await index.searchAll(exec, 'refund');
    expect(hits.length).toBe(5);
    for (const h of hits) expect(h).toMatchObject({ table: 'tickets', column: 'body', match: 'text' });
    expect(hits[0].value).toMatch(/asks for a refund of the/);
    await engine.close('db');
  }, 60_000);
});
