import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { createScriptedModel, type ScriptedTurn } from '../llm/scripted';
import { LlmError, type ChatModel, type ChatRequest } from '../llm/types';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import type { Schema } from '../types';
import { runDirect } from './direct';
import { sqlFromReply } from './direct-prompt';
import type { AgentEvent } from './events';

const QUESTION = 'Total of paid orders from Paris?';
const SQL =
  "SELECT sum(o.total) AS paid FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city = 'Paris' AND o.status = 'paid'";
const EXPLAINED = { text: 'Explanation: The total of paid orders by customers in Paris.\nVerdict: match' };

let toolbox: Toolbox;
let schema: Schema;
beforeAll(async () => {
  const engine = await createNodeEngine();
  await engine.open({ id: 's', name: 's', bytes: await buildDb(SHOP_SQL) });
  schema = await engine.introspect('s');
  toolbox = await buildToolbox(executorFor(engine, 's'), schema);
});

/** The scripted model, with the requests it received kept for the assertions. */
function recorded(turns: ScriptedTurn[]) {
  const inner = createScriptedModel(turns);
  const requests: ChatRequest[] = [];
  const model: ChatModel = { ...inner, stream: (req) => (requests.push(req), inner.stream(req)) };
  return { model, requests };
}

async function run(model: ChatModel, signal?: AbortSignal) {
  const events: AgentEvent[] = [];
  for await (const e of runDirect({
    question: QUESTION,
    hints: 'paid means status = paid',
    model,
    tools: toolbox,
    schema,
    signal,
  }))
    events.push(e);
  return events;
}

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('Direct mode', () => {
  it('answers in one call with the plain template, runs the SQL and explains it', async () => {
    const { model, requests } = recorded([{ text: '```sql\n' + SQL + ';\n```' }, EXPLAINED]);
    const events = await run(model);
    const prompt = requests[0].messages.at(-1)!.content;
    expect(prompt).toContain('# customers(id, name, city, joined)');
    expect(prompt).toContain('# orders.customer_id = customers.id');
    expect(prompt).toContain('### Hints: "paid means status = paid"');
    expect(prompt).toMatch(/### Question: "Total of paid orders from Paris\?"\nSQL:$/);
    expect(requests[0].tools).toBeUndefined();
    expect(of(events, 'action')).toHaveLength(0);
    expect(of(events, 'sql')).toEqual([expect.objectContaining({ sql: SQL, ok: true })]);
    expect(of(events, 'usage').map((e) => e.phase)).toEqual(['agent', 'explain']);
    expect(events.at(-1)).toMatchObject({
      type: 'final',
      sql: SQL,
      columns: ['paid'],
      rows: [[30.5]],
      verdict: 'match',
    });
  });

  it('repairs a failing query once, with the detail the tools computed', async () => {
    const broken = SQL.replace('o.total', 'o.totl');
    const { model, requests } = recorded([{ text: broken }, { text: SQL }, EXPLAINED]);
    const events = await run(model);
    expect(of(events, 'sql').map((e) => e.ok)).toEqual([false, true]);
    const repair = requests[1].messages.at(-1)!.content;
    expect(repair).toContain('no such column: o.totl');
    expect(repair).toContain('Close names (check they mean the same thing): orders.total (REAL;');
    expect(requests[1].messages.at(-2)).toEqual({ role: 'assistant', content: broken });
    expect(events.at(-1)).toMatchObject({ type: 'final', sql: SQL });
  });

  it('gives up after the one repair fails too', async () => {
    const { model } = recorded([{ text: 'SELECT nope FROM orders' }, { text: 'SELECT nope2 FROM orders' }]);
    const events = await run(model);
    expect(events.filter((e) => e.type === 'final' || e.type === 'error')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'gave_up', message: expect.stringContaining('nope2') });
  });

  it('ends in an error event for a reply without SQL or a failed model call', async () => {
    expect((await run(recorded([{ text: '   ' }]).model)).at(-1)).toMatchObject({ type: 'error', code: 'gave_up' });
    const failing: ChatModel = {
      ...createScriptedModel([]),
      // eslint-disable-next-line require-yield
      stream: async function* () {
        throw new LlmError('llm_server', 'The server failed.');
      },
    };
    expect((await run(failing)).at(-1)).toMatchObject({ type: 'error', code: 'llm_server' });
  });

  it('stops with an aborted error', async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await run(recorded([{ text: SQL }, EXPLAINED]).model, controller.signal);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'aborted' });
  });

  it('acts on a check that finds a problem: one turn with its words, the rewrite checked again', async () => {
    const all = "SELECT sum(total) AS paid FROM orders WHERE status = 'paid'";
    const { model, requests } = recorded([
      { text: all },
      {
        text: 'Verdict: mismatch\nProblem: It counts customers outside Paris too.\nExplanation: The total of paid orders.',
      },
      { text: SQL },
      EXPLAINED,
    ]);
    const events = await run(model);
    expect(requests).toHaveLength(4);
    const objection = requests[2].messages.at(-1)!.content;
    expect(objection).toContain('A check of this result against the question says mismatch');
    expect(objection).toContain('It counts customers outside Paris too.');
    expect(of(events, 'usage').map((e) => e.phase)).toEqual(['agent', 'explain', 'agent', 'explain']);
    expect(events.at(-1)).toMatchObject({ type: 'final', sql: SQL, verdict: 'match' });
  });

  it('answers in one request when the reply explains its SQL and nothing in the result calls for a check', async () => {
    const { model, requests } = recorded([{ text: `${SQL}\nExplanation: The total of paid orders from Paris.` }]);
    const events = await run(model);
    expect(requests).toHaveLength(1);
    expect(requests[0].messages[0].content).toContain('then a last line "Explanation:"');
    expect(of(events, 'usage').map((e) => e.why)).toEqual(['the answer']);
    expect(events.at(-1)).toMatchObject({
      type: 'final',
      sql: SQL,
      rows: [[30.5]],
      verdict: 'unchecked',
      explanation: 'The total of paid orders from Paris.',
    });
  });

  it('says an unsure check to the person and rewrites nothing on it: nothing new to act on', async () => {
    const { model, requests } = recorded([
      { text: SQL },
      {
        text: 'Verdict: unsure\nProblem: Paid may include refunds.\nExplanation: The total of paid orders from Paris.',
      },
    ]);
    const events = await run(model);
    // The reply had no explanation: that, and only that, called for the check.
    expect(requests).toHaveLength(2);
    expect(requests[1].messages[1].content).toContain('Look first at: the reply had no explanation.');
    expect(of(events, 'usage').map((e) => e.why)).toEqual(['the answer', 'a check: the reply had no explanation']);
    expect(events.at(-1)).toMatchObject({
      type: 'final',
      sql: SQL,
      verdict: 'unsure',
      note: 'A check was unsure: Paid may include refunds.',
    });
  });

  it('acts on an unsure check when the result gave the reason: a NULL total is new evidence', async () => {
    const none = "SELECT sum(o.total) AS paid FROM orders o WHERE o.status = 'refunded'";
    const { model, requests } = recorded([
      { text: `${none}\nExplanation: The total of refunded orders.` },
      {
        text: 'Verdict: unsure\nProblem: No order is refunded; the question asks for paid ones.\nExplanation: Nothing.',
      },
      { text: `${SQL}\nExplanation: The total of paid orders from Paris.` },
    ]);
    const events = await run(model);
    expect(requests).toHaveLength(3);
    expect(requests[1].messages[1].content).toContain('Look first at: the result is one row of NULL or 0.');
    expect(requests[2].messages.at(-1)!.content).toContain('A check of this result against the question says unsure');
    expect(of(events, 'usage').map((e) => e.why)).toEqual([
      'the answer',
      'a check: the result is one row of NULL or 0',
      'keep or fix: the check found a problem',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'final', sql: SQL, verdict: 'unchecked', rows: [[30.5]] });
  });

  it('reads SQL out of replies', () => {
    expect(sqlFromReply('SQL: SELECT 1;')).toBe('SELECT 1');
    expect(sqlFromReply("Here:\n```sqlite\nSELECT ';' AS x;\nSELECT 2\n```\nDone")).toBe("SELECT ';' AS x");
  });
});
