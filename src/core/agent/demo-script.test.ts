import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { createScriptedModel } from '../llm/scripted';
import type { SqlValue } from '../types';
import { DEMO_NOTE, DEMO_QUESTION, DEMO_SCRIPT, DEMO_SQL } from './demo-script';
import type { AgentEvent } from './events';
import { runAgent } from './loop';

const DEMO_DB = resolve(__dirname, '../../../public/demo.sqlite');

/** The page's path: engine → open → buildTools; tools go through DbEngine.callTool. */
async function runDemo(bytes: Uint8Array) {
  const engine = await createNodeEngine();
  await engine.open({ id: 'demo', name: 'demo.sqlite', bytes });
  await engine.buildTools('demo');
  const schema = await engine.introspect('demo');
  const links = await engine.linkQuestion('demo', DEMO_QUESTION);
  const events: AgentEvent[] = [];
  for await (const e of runAgent({
    question: DEMO_QUESTION,
    model: createScriptedModel(DEMO_SCRIPT),
    tools: { call: (name, args) => engine.callTool('demo', name, args) },
    schema,
    links,
  })) {
    events.push(e);
  }
  return events;
}

function expectCleanTopFive(events: AgentEvent[]) {
  expect(events.filter((e) => e.type === 'error')).toEqual([]);
  const observations = events.filter((e) => e.type === 'observation');
  expect(observations.filter((o) => !o.ok)).toEqual([]);
  expect(events.find((e) => e.type === 'plan')).toMatchObject({ problems: [] });
  const last = events[events.length - 1];
  if (last.type !== 'final') throw new Error(`expected a final event, got ${last.type}`);
  expect(last).toMatchObject({
    sql: DEMO_SQL,
    columns: ['customer', 'total_spent'],
    verdict: 'match',
    truncated: false,
  });
  expect(last.explanation).toBeTruthy();
  expect(last.rows).toHaveLength(5);
  const totals = last.rows.map((r) => r[1] as number);
  for (const t of totals) expect(t).toBeGreaterThan(0);
  expect([...totals].sort((a, b) => b - a)).toEqual(totals);
  for (const r of last.rows) expect(String(r[0])).toMatch(/\S+ \S+/);
  return last.rows;
}

describe('the scripted demo on public/demo.sqlite', () => {
  it('runs the whole flow live: plan, lookups, join path, SQL, final rows and a match verdict', async () => {
    const events = await runDemo(new Uint8Array(readFileSync(DEMO_DB)));
    const rows = expectCleanTopFive(events);
    const observations = events.flatMap((e) => (e.type === 'observation' ? [e.text] : []));
    expect(observations.some((o) => o.includes('"Canada" in customers.country'))).toBe(true);
    expect(observations.some((o) => o.includes('"delivered" in orders.status'))).toBe(true);
    expect(observations.some((o) => o.includes('customers -> orders -> order_items'))).toBe(true);
    // Nothing the script says may be a result: the rows come from the database on each run.
    const written = JSON.stringify(DEMO_SCRIPT);
    for (const cell of rows.flat()) expect(written).not.toContain(String(cell));
  }, 30_000);

  it('still works when the demo data changes in a compatible way', async () => {
    // Same schema and spellings, different numbers and people: drop a third of the order lines
    // and move more customers to Canada.
    const SQL = await initSqlJs();
    const db = new SQL.Database(new Uint8Array(readFileSync(DEMO_DB)));
    db.run(
      "DELETE FROM order_items WHERE order_id % 3 = 0; UPDATE customers SET country = 'Canada', city = 'Halifax' WHERE customer_id % 5 = 0;",
    );
    const bytes = db.export();
    const expected = db.exec(DEMO_SQL)[0].values as SqlValue[][];
    db.close();
    const rows = expectCleanTopFive(await runDemo(bytes));
    expect(rows).toEqual(expected);
  }, 30_000);

  it('tells the visitor plainly that no model is answering', () => {
    expect(DEMO_NOTE).toMatch(/no model is answering/i);
    expect(DEMO_NOTE).toMatch(/pre-written/i);
    expect(DEMO_NOTE).toMatch(/run live/i);
  });
});
