import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { recordedModel } from '../../test-support/recorded-model';
import { executorFor, type SqlExecutor } from '../executor';
import type { ChatRequest } from '../llm/types';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import type { QueryResult, Schema } from '../types';
import { explainSql } from './explain-sql';
import { fixSql } from './fix-sql';
import { median, optimizeSql } from './optimize-sql';
import { compareResults } from './result-compare';

let toolbox: Toolbox;
let schema: Schema;
let exec: SqlExecutor;
beforeAll(async () => {
  const engine = await createNodeEngine();
  await engine.open({ id: 's', name: 's', bytes: await buildDb(SHOP_SQL) });
  schema = await engine.introspect('s');
  exec = executorFor(engine, 's');
  toolbox = await buildToolbox(exec, schema);
});

const recorded = recordedModel;

const lastUser = (r: ChatRequest) => r.messages.filter((m) => m.role === 'user').at(-1)!.content;

describe('Fix', () => {
  it('sends the SQLite error with the close names and runs the fix', async () => {
    const { model, requests } = recorded([{ text: "SELECT name, city FROM customers WHERE city = 'Paris'" }]);
    const report = await fixSql({
      sql: "SELECT nam, city FROM customers WHERE city = 'Paris'",
      question: 'Who lives in Paris?',
      schema,
      model,
      tools: toolbox,
    });
    const prompt = lastUser(requests[0]);
    expect(prompt).toContain('### Question: "Who lives in Paris?"');
    expect(prompt).toContain('no such column: nam');
    expect(prompt).toMatch(/Close names.*customers\.name/);
    expect(prompt).toContain('# customers(id, name, city, joined)');
    expect(report.status).toBe('fixed');
    expect(report.fixed?.outcome?.rows).toEqual([['Ada', 'Paris']]);
  });

  it("sends which filter emptied the result and the person's note", async () => {
    const { model, requests } = recorded([{ text: "SELECT name FROM customers WHERE city = 'Paris'" }]);
    const report = await fixSql({
      sql: "SELECT name FROM customers WHERE city = 'paris' AND joined > '2024'",
      note: 'Ada lives in Paris',
      schema,
      model,
      tools: toolbox,
    });
    const prompt = lastUser(requests[0]);
    expect(prompt).toContain("`city = 'paris'` keeps none of the");
    expect(prompt).toContain('### What is wrong, says the person: "Ada lives in Paris"');
    expect(report.status).toBe('fixed');
  });

  it('stops after two rounds and says what it tried', async () => {
    const { model, requests } = recorded([
      { text: 'SELECT nme FROM customers' },
      { text: 'SELECT nam FROM customers' },
    ]);
    const report = await fixSql({ sql: 'SELECT nam FROM customers', schema, model, tools: toolbox });
    expect(requests).toHaveLength(2);
    expect(lastUser(requests[1])).toContain('no such column: nme');
    expect(report.status).toBe('not_fixed');
    expect(report.summary).toContain('1. SELECT nme FROM customers — error (sql_error)');
    expect(report.summary).toContain('2. SELECT nam FROM customers — it repeats a query already tried');
  });

  it('has nothing to fix for SQL that runs and returns rows, without a note', async () => {
    const { model, requests } = recorded([]);
    const report = await fixSql({ sql: 'SELECT name FROM customers', schema, model, tools: toolbox });
    expect(report.status).toBe('nothing_to_fix');
    expect(requests).toHaveLength(0);
  });
});

/** A clock that only the executor moves: each query costs what `cost` says, so timing is exact. */
function timedExec(cost: (sql: string) => number) {
  let now = 0;
  const timed: SqlExecutor = {
    query: async (sql, options) => {
      now += cost(sql);
      return exec.query(sql, options);
    },
  };
  return { exec: timed, clock: () => now };
}

describe('Optimize', () => {
  const ORIGINAL = 'SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders) ORDER BY name';
  const REWRITE = 'SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY c.name';

  it('accepts an equivalent rewrite that is faster by the margin, with both plans and the C-VES term', async () => {
    const { model, requests } = recorded([{ text: REWRITE }]);
    const { exec: e, clock } = timedExec((sql) => (sql === ORIGINAL ? 10 : sql === REWRITE ? 4 : 0));
    const r = await optimizeSql({ sql: ORIGINAL, schema, model, exec: e, clock, runs: 5 });
    expect(r.status).toBe('accepted');
    expect(r.original.timesMs).toEqual([10, 10, 10, 10, 10]);
    expect(r.reason).toContain('median 4.00 ms against 10 ms (5 runs each), 2.50× as fast');
    expect(r.rewrite?.medianMs).toBe(4);
    expect(r.speedup).toBeCloseTo(2.5);
    expect(r.cVes).toBeCloseTo(Math.sqrt(2.5));
    expect(r.original.plan.join('\n')).toMatch(/SCAN|SEARCH/);
    expect(r.rewrite?.plan.length).toBeGreaterThan(0);
    expect(lastUser(requests[0])).toContain(`### Query: ${JSON.stringify(ORIGINAL)}`);
    expect(lastUser(requests[0])).toContain('# Indexes:');
  });

  it('rejects a rewrite with different results, saying how they differ', async () => {
    const { model } = recorded([{ text: "SELECT name FROM customers WHERE city = 'Paris' ORDER BY name" }]);
    const r = await optimizeSql({ sql: ORIGINAL, schema, model, exec });
    expect(r.status).toBe('rejected');
    expect(r.sameResults).toBe(false);
    expect(r.reason).toContain('Different results: it returns 1 rows instead of 3');
    expect(r.cVes).toBeNull();
  });

  it('compares in order when the SQL orders, as multisets otherwise', async () => {
    const reversed =
      'SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.id ORDER BY c.name DESC';
    const { model } = recorded([{ text: reversed }]);
    const r = await optimizeSql({ sql: ORIGINAL, schema, model, exec });
    expect(r.status).toBe('rejected');
    expect(r.reason).toContain('row 1 differs');
    const a = { columns: ['x'], rows: [[1], [2], [2]] };
    expect(compareResults(a, { columns: ['y'], rows: [[2], [1], [2]] }, { inOrder: false })).toEqual({ same: true });
    expect(compareResults(a, { columns: ['y'], rows: [[2], [1], [1]] }, { inOrder: false }).same).toBe(false);
    expect(
      compareResults({ columns: ['x'], rows: [[1]] }, { columns: ['x'], rows: [['1']] }, { inOrder: false }).same,
    ).toBe(false);
  });

  it('rejects an identical-result rewrite that is slower, or faster by less than the margin', async () => {
    const slower = timedExec((sql) => (sql === ORIGINAL ? 5 : sql === REWRITE ? 7 : 0));
    const r = await optimizeSql({ sql: ORIGINAL, schema, model: recorded([{ text: REWRITE }]).model, ...slower });
    expect(r.status).toBe('rejected');
    expect(r.sameResults).toBe(true);
    expect(r.reason).toContain('Identical results, but not faster: median 7.00 ms against 5.00 ms');
    expect(r.cVes).toBeCloseTo(Math.sqrt(5 / 7));
    const slightly = timedExec((sql) => (sql === ORIGINAL ? 10 : sql === REWRITE ? 9 : 0));
    const s = await optimizeSql({ sql: ORIGINAL, schema, model: recorded([{ text: REWRITE }]).model, ...slightly });
    expect(s.status).toBe('rejected');
    expect(s.reason).toContain('not faster by the margin of 20%');
    const tiny = timedExec((sql) => (sql === ORIGINAL ? 0.9 : sql === REWRITE ? 0.3 : 0));
    const t = await optimizeSql({ sql: ORIGINAL, schema, model: recorded([{ text: REWRITE }]).model, ...tiny });
    expect(t.status).toBe('rejected');
    expect(t.reason).toContain('it saves less than 1 ms, within timing noise');
    // Faster by the medians, but slower in one interleaved pair: noise, not a speed-up.
    let call = 0;
    const bursty = timedExec((sql) => (sql === ORIGINAL ? 10 : sql === REWRITE ? (++call === 3 ? 12 : 4) : 0));
    const n = await optimizeSql({ sql: ORIGINAL, schema, model: recorded([{ text: REWRITE }]).model, ...bursty });
    expect(n.status).toBe('rejected');
    expect(n.reason).toContain('it was faster in only 6 of 7 interleaved runs, within timing noise');
  });

  it('stops timing when the budget is spent, and refuses a write or an unchanged query', async () => {
    const slow = timedExec((sql) => (sql === ORIGINAL ? 600 : sql === REWRITE ? 100 : 0));
    const r = await optimizeSql({
      sql: ORIGINAL,
      schema,
      model: recorded([{ text: REWRITE }]).model,
      ...slow,
      timeBudgetMs: 1000,
    });
    expect(r.original.timesMs).toHaveLength(2);
    expect(r.status).toBe('accepted');
    const write = await optimizeSql({
      sql: ORIGINAL,
      schema,
      model: recorded([{ text: 'DELETE FROM customers' }]).model,
      exec,
    });
    expect(write.status).toBe('rejected');
    expect(write.reason).toMatch(/does not run: .*(read|write|SELECT)/i);
    const same = await optimizeSql({ sql: ORIGINAL, schema, model: recorded([{ text: ORIGINAL + ';' }]).model, exec });
    expect(same.reason).toBe('The model proposed no change.');
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });

  it('says the server timed both only when its plan told every run’s time', async () => {
    // A PostgreSQL database as the executor sees it: EXPLAIN ANALYZE answers with the plan's JSON.
    const plan = (cell: string): QueryResult => ({
      columns: ['QUERY PLAN'],
      columnTypes: [['text']],
      rows: [[cell]],
      truncated: false,
      offset: 0,
      elapsedMs: 0,
    });
    const server = (told: (sql: string) => number | null): SqlExecutor => ({
      dialect: 'postgres',
      query: async (sql, options) => {
        const analyzed = /^EXPLAIN \(ANALYZE[^)]*\) (.*)$/s.exec(sql);
        if (analyzed) {
          const ms = told(analyzed[1]);
          return plan(JSON.stringify([ms === null ? {} : { 'Execution Time': ms }]));
        }
        if (sql.startsWith('EXPLAIN ')) return plan('Seq Scan on customers');
        return exec.query(sql, options);
      },
    });
    const pgSchema: Schema = { ...schema, dialect: 'postgres' };
    const both = await optimizeSql({
      sql: ORIGINAL,
      schema: pgSchema,
      model: recorded([{ text: REWRITE }]).model,
      exec: server((sql) => (sql === ORIGINAL ? 10 : 4)),
      runs: 3,
    });
    expect(both.reason).toContain('median 4.00 ms against 10 ms (3 runs each, timed by the server)');
    // The rewrite's plan does not say: its runs are the clock's, and the verdict does not claim the server's.
    const partly = await optimizeSql({
      sql: ORIGINAL,
      schema: pgSchema,
      model: recorded([{ text: REWRITE }]).model,
      exec: server((sql) => (sql === ORIGINAL ? 10 : null)),
      runs: 3,
    });
    expect(partly.reason).toMatch(/\(3 runs each\)/);
  });
});

describe('Explain', () => {
  it('explains any SQL with what the lexer reads for sure, and the rows the model saw', async () => {
    const { model, requests } = recorded([
      { text: 'Explanation: The number of orders per city of the customers who placed them.\nVerdict: unsure' },
    ]);
    const sql =
      "SELECT c.city, count(*) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status = 'paid' GROUP BY c.city ORDER BY 2 DESC LIMIT 5";
    const r = await explainSql({ sql, schema, model, tools: toolbox });
    expect(r.explanation).toContain('number of orders per city');
    expect(r.verdict).toBeNull();
    expect(r.structure).toEqual({
      tables: ['customers', 'orders'],
      filters: ["o.status = 'paid'"],
      groupBy: 'c.city',
      orderBy: '2 DESC',
      limit: '5',
    });
    const prompt = lastUser(requests[0]);
    expect(prompt).toContain('"Paris" | 2');
    expect(requests[0].messages[0].content).toContain('from which tables, with which filters');
  });

  it('explains SQL that fails from its text and the error', async () => {
    const { model, requests } = recorded([{ text: 'Explanation: It would list names.\nVerdict: unsure' }]);
    const r = await explainSql({ sql: 'SELECT nam FROM customers', schema, model, tools: toolbox, question: 'names?' });
    expect(r.outcome?.ok).toBe(false);
    expect(lastUser(requests[0])).toContain('Running it failed: Error (sql_error): no such column: nam');
    expect(r.verdict).toBe('unsure');
  });
});
