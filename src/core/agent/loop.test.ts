import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { createScriptedModel } from '../llm/scripted';
import { LlmError, type ChatModel, type ChatRequest, type ChatResponse } from '../llm/types';
import { executorFor } from '../executor';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import type { Schema } from '../types';
import type { AgentEvent } from './events';
import { MAX_CALLS_PER_TURN, runAgent, type AgentTools, type RunAgentOptions } from './loop';

// A minimal test double (the project's scripted model is a separate provider): replies in order.
type Reply = ChatResponse | Error | ((req: ChatRequest) => ChatResponse | Promise<ChatResponse>);

function fakeModel(replies: Reply[], supportsTools = true) {
  const requests: ChatRequest[] = [];
  let i = 0;
  const model: ChatModel = {
    provider: 'fake',
    model: 'fake',
    supportsTools,
    async *stream(req) {
      requests.push(req);
      const r = replies[i++] ?? say('');
      if (r instanceof Error) throw r;
      yield { type: 'finish', response: typeof r === 'function' ? await r(req) : r };
    },
  };
  return { model, requests };
}

const usage = { inputTokens: 100, outputTokens: 10, estimated: false };
let ids = 0;
const call = (name: string, args: unknown, text = ''): ChatResponse => ({
  text,
  toolCalls: [{ id: `c${++ids}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
  usage,
  finishReason: 'tool_calls',
});
const say = (text: string): ChatResponse => ({ text, toolCalls: [], usage, finishReason: 'stop' });

const PLAN = {
  sub_questions: [
    { text: 'Which customers are in Paris?', tables: [{ table: 'customers', columns: ['id', 'city'] }] },
    {
      text: 'What is the total of their paid orders?',
      tables: [{ table: 'Orders', columns: ['customer_id', 'total', 'status'] }],
    },
  ],
};
const SQL =
  "SELECT sum(o.total) AS paid FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city = 'Paris' AND o.status = 'paid'";
const EXPLAINED = say('Explanation: The total of paid orders by customers who live in Paris.\nVerdict: match');

let toolbox: Toolbox;
let schema: Schema;
beforeAll(async () => {
  const engine = await createNodeEngine();
  await engine.open({ id: 's', name: 's', bytes: await buildDb(SHOP_SQL) });
  schema = await engine.introspect('s');
  toolbox = await buildToolbox(executorFor(engine, 's'), schema);
});

async function run(replies: Reply[], more: Partial<RunAgentOptions> = {}) {
  const { model, requests } = fakeModel(replies, more.mode !== 'text');
  const events: AgentEvent[] = [];
  for await (const e of runAgent({
    question: 'Total of paid orders from Paris?',
    model,
    tools: toolbox,
    schema,
    ...more,
  }))
    events.push(e);
  return { events, requests, types: events.map((e) => e.type), last: events[events.length - 1] };
}

const observations = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'observation' ? [e.text] : []));
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

describe('runAgent, native tools', () => {
  it('says beside each observation what the model read when the privacy level withheld values (issue 25)', async () => {
    const rowsSql = "SELECT name, city FROM customers WHERE city = 'Oslo'";
    const replies = [
      call('submit_plan', PLAN),
      call('execute_sql', { sql: rowsSql }),
      call('done', { sql: rowsSql }),
      EXPLAINED,
    ];
    const full = await run(replies);
    const observations = of(full.events, 'observation');
    expect(observations.length).toBeGreaterThan(0);
    expect(observations.every((o) => o.modelText === undefined)).toBe(true);
    const schemaOnly = await run(replies, { privacy: 'schema' });
    const executed = of(schemaOnly.events, 'observation').find((o) => o.tool === 'execute_sql')!;
    expect(executed.text).toContain('Cy'); // the person sees the row
    expect(executed.modelText).toBeDefined();
    expect(executed.modelText).not.toContain('Cy'); // the model did not
    expect(executed.modelText).toMatch(/withheld/);
    const sentToModel = JSON.stringify(schemaOnly.requests.map((r) => r.messages));
    expect(sentToModel).not.toContain('Cy');
  });

  it('plans, searches, executes, finishes and explains', async () => {
    const { events, requests, last } = await run([
      call('submit_plan', PLAN, 'I split the question.'),
      call('search_value', { query: 'paris' }),
      call('execute_sql', { sql: SQL }),
      call('done', { sql: SQL }),
      EXPLAINED,
    ]);
    expect(of(events, 'plan')[0].plan.sub_questions[1].tables[0].table).toBe('orders');
    expect(of(events, 'thought')[0].text).toBe('I split the question.');
    expect(observations(events)[1]).toContain('"Paris" in customers.city');
    expect(of(events, 'sql')[0]).toMatchObject({ ok: true, summary: '1 row, 1 column' });
    expect(last).toMatchObject({
      type: 'final',
      sql: SQL,
      columns: ['paid'],
      rows: [[30.5]],
      verdict: 'match',
      explanation: 'The total of paid orders by customers who live in Paris.',
    });
    const usages = of(events, 'usage');
    expect(usages).toHaveLength(5);
    expect(usages[4]).toMatchObject({
      phase: 'explain',
      total: { inputTokens: 500, outputTokens: 50, estimated: false },
    });
    expect(of(events, 'status')[0]).toMatchObject({ turn: 1, maxTurns: 12, step: 1 });
    expect(last.step).toBe(5);
    expect(events.every((e) => typeof e.at === 'number')).toBe(true);
    // Tool results go back as tool messages that echo the call id.
    const second = requests[1].messages;
    expect(second[second.length - 1]).toMatchObject({
      role: 'tool',
      name: 'submit_plan',
      content: expect.stringContaining('Plan recorded'),
    });
    expect(requests[0].tools?.map((t) => t.name)).toContain('done');
    expect(requests[4].tools).toBeUndefined();
  });
});

describe('runAgent, text protocol', () => {
  it('runs the same process from Action lines', async () => {
    const { events, requests, last } = await run(
      [
        say(`Thought: plan first.\nAction: submit_plan ${JSON.stringify(PLAN)}`),
        say(
          'Thought: find the city\nAction: search_value {"query": "Paris", "table": "customers"}\nObservation: made up',
        ),
        say(`Action: execute_sql {"sql": ${JSON.stringify(SQL)}}`),
        say(`\`\`\`\nAction: done {"sql": ${JSON.stringify(SQL)}}\n\`\`\``),
        EXPLAINED,
      ],
      { mode: 'text' },
    );
    expect(last).toMatchObject({ type: 'final', rows: [[30.5]] });
    expect(requests[0].stop).toEqual(['\nObservation:']);
    expect(requests[0].tools).toBeUndefined();
    const msgs = requests[2].messages;
    expect(msgs[msgs.length - 2]).toEqual({
      role: 'assistant',
      content: 'Thought: find the city\nAction: search_value {"query": "Paris", "table": "customers"}',
    });
    expect(msgs[msgs.length - 1]).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^Observation: Values matching "Paris"/),
    });
    expect(of(events, 'thought').map((t) => t.text)).toEqual(['plan first.', 'find the city']);
  });

  it('turns malformed actions into observations and keeps going', async () => {
    const { events, last } = await run(
      [
        say('Action: submit_plan {"sub_questions": ['),
        say('I do not know.'),
        say(`Action: submit_plan ${JSON.stringify(PLAN)}`),
      ],
      { mode: 'text', maxTurns: 3 },
    );
    expect(observations(events)[0]).toContain('not closed');
    expect(observations(events)[1]).toContain('No action found');
    expect(last).toMatchObject({ type: 'error', code: 'turn_limit' });
  });

  it('never lets random replies throw past the loop', async () => {
    let seed = 7;
    const junk = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return `Action: ${['done', 'execute_sql', 'x'][seed % 3]} {"sql": ${seed % 2 ? '"SELECT 1"' : '[{'}}`.slice(
        0,
        10 + (seed % 40),
      );
    };
    for (let r = 0; r < 5; r++) {
      const { last } = await run(
        Array.from({ length: 6 }, () => say(junk())),
        { mode: 'text', maxTurns: 6 },
      );
      expect(last.type).toBe('error');
    }
  });
});

describe('runAgent guards', () => {
  it('asks for the plan first', async () => {
    const { events } = await run([call('search_value', { query: 'Paris' })], { maxTurns: 1 });
    expect(observations(events)[0]).toContain('The plan comes first');
    expect(of(events, 'observation')[0].ok).toBe(false);
  });

  it('takes done without a prior execute_sql: its SQL runs and a check writes the explanation', async () => {
    const { events, requests, last } = await run([call('submit_plan', PLAN), call('done', { sql: SQL }), EXPLAINED]);
    expect(of(events, 'action').map((a) => a.tool)).toEqual(['submit_plan', 'done']);
    expect(requests).toHaveLength(3);
    expect(requests[2].tools).toBeUndefined();
    expect(last).toMatchObject({ type: 'final', sql: SQL, rows: [[30.5]], verdict: 'match' });
  });

  it('refuses done whose SQL fails, with the error to repair', async () => {
    const { events } = await run([call('submit_plan', PLAN), call('done', { sql: 'SELECT nope FROM orders' })], {
      maxTurns: 2,
    });
    expect(observations(events)[1]).toContain('done refused: the SQL failed when run');
    expect(of(events, 'final')).toHaveLength(0);
  });

  it('flags a repeated call, then stops on the third', async () => {
    const q = { query: 'Paris' };
    const { events, last } = await run([
      call('submit_plan', PLAN),
      call('search_value', q),
      call('search_value', { ...q }),
      call('search_value', q),
    ]);
    expect(observations(events)[1]).not.toContain('already made');
    expect(observations(events)[2]).toContain('you already made this exact call');
    expect(last).toMatchObject({ type: 'error', code: 'repeated_call' });
  });

  it('reports unknown tools and bad arguments as observations', async () => {
    const { events } = await run(
      [
        call('submit_plan', PLAN),
        call('drop_table', { name: 'x' }),
        call('search_value', { k: 3 }),
        call('execute_sql', '{"sql": '),
        call('submit_plan', { sub_questions: 'all' }),
      ],
      { maxTurns: 5 },
    );
    const obs = observations(events);
    expect(obs[1]).toMatch(/^Unknown tool "drop_table". Tools: submit_plan, search_column/);
    expect(obs[2]).toMatch(/^Bad arguments for search_value: query/);
    expect(obs[3]).toContain('not valid JSON');
    expect(obs[4]).toMatch(/^Bad arguments for submit_plan: sub_questions/);
  });

  it('tells the model that arguments nested 100,000 levels deep are refused, and goes on', async () => {
    // Such arguments once ended the run with "Maximum call stack size exceeded".
    const deepArrays = `{"query": "x", "a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const deepObjects = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const { events, last } = await run([
      call('submit_plan', PLAN),
      call('search_value', deepArrays),
      call('execute_sql', deepObjects),
      call('execute_sql', { sql: SQL }),
      call('done', { sql: SQL }),
      EXPLAINED,
    ]);
    const obs = observations(events);
    expect(obs[1]).toMatch(/^The arguments of search_value nest more than 32 levels/);
    expect(obs[2]).toMatch(/^The arguments of execute_sql nest more than 32 levels/);
    expect(last).toMatchObject({ type: 'final', sql: SQL, rows: [[30.5]] });
  });

  it('stops at the turn limit', async () => {
    const { last, types } = await run(
      [call('submit_plan', PLAN), call('search_column', { query: 'city' }), call('search_column', { query: 'total' })],
      { maxTurns: 2 },
    );
    expect(last).toMatchObject({ type: 'error', code: 'turn_limit', message: 'No answer within 2 turns.' });
    expect(types.filter((t) => t === 'status')).toHaveLength(2);
  });

  it('gives every tool call a time limit', async () => {
    let sawAbort = false;
    const slow: AgentTools = {
      call: (name, args, signal) =>
        name === 'search_value'
          ? new Promise(() => {
              signal?.addEventListener('abort', () => {
                sawAbort = true;
              });
            })
          : toolbox.call(name, args, signal),
    };
    const { events } = await run([call('submit_plan', PLAN), call('search_value', { query: 'Paris' })], {
      tools: slow,
      toolTimeoutMs: 30,
      maxTurns: 2,
    });
    expect(observations(events)[1]).toContain('search_value did not finish within 30 ms');
    expect(sawAbort).toBe(true);
  });

  it('stops mid-run on abort, during a model call or a tool call, without throwing', async () => {
    const controller = new AbortController();
    const hang = () =>
      new Promise<ChatResponse>(() => {
        setTimeout(() => controller.abort(), 5);
      });
    const { last, types } = await run([call('submit_plan', PLAN), hang], { signal: controller.signal });
    expect(last).toMatchObject({ type: 'error', code: 'aborted' });
    expect(types.filter((t) => t === 'error')).toHaveLength(1);

    const c2 = new AbortController();
    const tools: AgentTools = {
      call: () =>
        new Promise(() => {
          setTimeout(() => c2.abort(), 5);
        }),
    };
    const second = await run([call('submit_plan', PLAN), call('search_column', { query: 'x' })], {
      tools,
      signal: c2.signal,
    });
    expect(second.last).toMatchObject({ type: 'error', code: 'aborted' });
  });

  it('allows two repairs, then requires a change of approach', async () => {
    const bad = (n: number) => call('execute_sql', { sql: `SELECT nam${n} FROM customers` });
    const { events } = await run(
      [
        call('submit_plan', PLAN),
        bad(1),
        bad(2),
        bad(3),
        bad(4),
        call('search_column', { query: 'name' }),
        call('execute_sql', { sql: "SELECT name FROM customers WHERE city = 'Nowhere'" }),
      ],
      { maxTurns: 7 },
    );
    const obs = observations(events);
    expect(obs[1]).toContain('repair 1 of 2');
    expect(obs[2]).toContain('repair 2 of 2');
    expect(obs[3]).toContain('Repair limit reached');
    expect(obs[4]).toMatch(/^execute_sql refused: the repair limit was reached/);
    // An empty result is information, not a failed repair.
    expect(obs[6]).toContain('No rows.');
    expect(obs[6]).not.toContain('repair');
  });

  it('ends as given up when the model stops after the repair limit', async () => {
    const bad = (n: number) => call('execute_sql', { sql: `SELECT nam${n} FROM customers` });
    const { last } = await run([
      call('submit_plan', PLAN),
      bad(1),
      bad(2),
      bad(3),
      say('The database has no such data.'),
    ]);
    expect(last).toMatchObject({ type: 'error', code: 'gave_up', message: 'The database has no such data.' });
  });

  it('ends with the model error code', async () => {
    const { last, types } = await run([
      call('submit_plan', PLAN),
      new LlmError('llm_rate_limit', 'Too many requests.'),
    ]);
    expect(last).toMatchObject({ type: 'error', code: 'llm_rate_limit', message: 'Too many requests.' });
    expect(types).toContain('plan');
  });

  it('keeps the final SQL when the explanation fails', async () => {
    const { last } = await run([
      call('submit_plan', PLAN),
      call('execute_sql', { sql: SQL }),
      call('done', { sql: SQL }),
      new LlmError('llm_server', 'Bad gateway.'),
    ]);
    expect(last).toMatchObject({
      type: 'final',
      sql: SQL,
      rows: [[30.5]],
      explanation: null,
      verdict: 'unsure',
      note: expect.stringContaining('Bad gateway.'),
    });
  });

  it('refuses a done SQL that fails, as a repair round', async () => {
    const { events } = await run(
      [
        call('submit_plan', PLAN),
        call('execute_sql', { sql: SQL }),
        call('done', { sql: 'SELECT nope FROM customers' }),
      ],
      { maxTurns: 3 },
    );
    expect(observations(events)[2]).toContain('done refused: the SQL failed when run.');
    expect(observations(events)[2]).toContain('repair 1 of 2');
  });
});

describe('runAgent streaming', () => {
  it("yields text deltas while the model call runs, before the turn's action", async () => {
    const model = createScriptedModel(
      [{ text: 'I split the question into two parts.', toolCalls: [{ name: 'submit_plan', arguments: PLAN }] }],
      { pieceSize: 5, delayMs: 1 },
    );
    const events: AgentEvent[] = [];
    for await (const e of runAgent({
      question: 'Total of paid orders from Paris?',
      model,
      tools: toolbox,
      schema,
      maxTurns: 1,
    }))
      events.push(e);
    const types = events.map((e) => e.type);
    const deltas = of(events, 'thought_delta');
    // With a pause between pieces each one is its own event, and they come in order before the action.
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((d) => d.text).join('')).toBe('I split the question into two parts.');
    expect(types.lastIndexOf('thought_delta')).toBeLessThan(types.indexOf('action'));
    expect(types.lastIndexOf('thought_delta')).toBeLessThan(types.indexOf('usage'));
    expect(of(events, 'thought')[0].text).toBe('I split the question into two parts.');
    expect(deltas.every((d) => d.step === 1)).toBe(true);
  });

  it('stops during a streaming call without waiting for it', async () => {
    const controller = new AbortController();
    const model = createScriptedModel([{ text: 'x'.repeat(200) }], { pieceSize: 1, delayMs: 5 });
    const events: AgentEvent[] = [];
    for await (const e of runAgent({ question: 'q', model, tools: toolbox, schema, signal: controller.signal })) {
      events.push(e);
      if (e.type === 'thought_delta') controller.abort();
    }
    expect(events[events.length - 1]).toMatchObject({ type: 'error', code: 'aborted' });
    expect(of(events, 'thought_delta').length).toBeLessThan(5);
  });
});

describe('runAgent, issue 8 behaviour', () => {
  it('done names its SQL: without it the model is told which SQL ran last, and finishes when it names one', async () => {
    const { events, last } = await run([
      call('submit_plan', PLAN),
      call('execute_sql', { sql: SQL }),
      call('execute_sql', { sql: 'SELECT count(*) FROM orders' }),
      call('done', {}),
      call('done', { sql: SQL }),
      EXPLAINED,
    ]);
    const refused = observations(events)[3];
    expect(refused).toContain('Bad arguments for done');
    expect(refused).toContain('The last SQL that ran was "SELECT count(*) FROM orders"');
    expect(last).toMatchObject({ type: 'final', sql: SQL, rows: [[30.5]], verdict: 'match' });
  });

  it('done explaining rows the model saw ends the run without another request', async () => {
    const { requests, last } = await run([
      call('submit_plan', PLAN),
      call('execute_sql', { sql: SQL }),
      call('done', { sql: ` ${SQL.toLowerCase()};`, explanation: 'Paid orders from Paris total 30.5.' }),
    ]);
    expect(requests).toHaveLength(3);
    expect(last).toMatchObject({ type: 'final', explanation: 'Paid orders from Paris total 30.5.', verdict: 'match' });
  });

  it('done with SQL whose rows the model has not seen gets a check; its problem sends the model back once', async () => {
    const other = "SELECT sum(o.total) FROM orders o WHERE o.status = 'paid'";
    const { events, requests, last } = await run([
      call('submit_plan', PLAN),
      call('execute_sql', { sql: SQL }),
      call('done', { sql: other, explanation: 'The total.' }),
      say(
        'Verdict: mismatch\nProblem: It does not keep only customers from Paris.\nExplanation: The total of all paid orders.',
      ),
      call('done', { sql: SQL, explanation: 'Paid orders from Paris total 30.5.' }),
    ]);
    const held = observations(events)[2];
    expect(held).toContain('done held back: a check of this result against the question says mismatch');
    expect(held).toContain('It does not keep only customers from Paris.');
    expect(held).toContain('call done again with the same SQL to keep it');
    expect(requests).toHaveLength(5);
    expect(last).toMatchObject({ type: 'final', sql: SQL, verdict: 'match' });
    // Steps count model calls, the check included, without two calls sharing one.
    const steps = events.filter((e) => e.type === 'usage').map((e) => e.step);
    expect(steps).toEqual([1, 2, 3, 4, 5]);
  });

  it('a second check that objects no longer holds the answer back', async () => {
    const { last } = await run([
      call('submit_plan', PLAN),
      call('execute_sql', { sql: SQL }),
      call('done', { sql: 'SELECT 1 AS x' }),
      say('Verdict: mismatch\nProblem: Not the total.\nExplanation: One.'),
      call('done', { sql: 'SELECT 2 AS x' }),
      say('Verdict: mismatch\nProblem: Still not the total.\nExplanation: Two.'),
    ]);
    expect(last).toMatchObject({ type: 'final', sql: 'SELECT 2 AS x', verdict: 'mismatch', explanation: 'Two.' });
  });

  it('counts only SQL errors as repairs: empty results and refused writes never block execute_sql', async () => {
    const empty = (n: number) => call('execute_sql', { sql: `SELECT name FROM customers WHERE city = 'Nowhere${n}'` });
    const { events, last } = await run([
      call('submit_plan', PLAN),
      empty(1),
      call('execute_sql', { sql: 'DELETE FROM customers' }),
      empty(2),
      empty(3),
      call('execute_sql', { sql: SQL }),
      call('done', { sql: SQL }),
      EXPLAINED,
    ]);
    const obs = observations(events);
    expect(obs.slice(1, 5).join('\n')).not.toMatch(/repair|refused: the repair limit/);
    expect(obs[5]).toContain('30.5');
    expect(last).toMatchObject({ type: 'final', sql: SQL });
  });

  it('at the turn limit offers the last SQL that returned rows as an unverified answer', async () => {
    const { events, last } = await run(
      [
        call('submit_plan', PLAN),
        call('execute_sql', { sql: SQL }),
        call('execute_sql', { sql: "SELECT name FROM customers WHERE city = 'Nowhere'" }),
        EXPLAINED,
      ],
      { maxTurns: 3 },
    );
    expect(last).toMatchObject({ type: 'final', sql: SQL, unverified: true, rows: [[30.5]], verdict: 'match' });
    expect(of(events, 'error')).toHaveLength(0);
  });

  it('without any SQL that returned rows the turn limit is an error', async () => {
    const { last } = await run([call('submit_plan', PLAN), call('search_column', { query: 'city' })], { maxTurns: 2 });
    expect(last).toMatchObject({ type: 'error', code: 'turn_limit', message: 'No answer within 2 turns.' });
  });

  it('resends the conversation with an unchanged prefix: only the observation just answered is shortened', async () => {
    const long = call('search_value', { query: 'a' });
    const { requests } = await run(
      [
        call('submit_plan', PLAN),
        long,
        call('search_column', { query: 'order total' }),
        call('execute_sql', { sql: SQL }),
        call('done', { sql: SQL }),
        EXPLAINED,
      ],
      { compactObservations: true },
    );
    const agentRequests = requests.filter((r) => r.tools);
    for (let i = 1; i < agentRequests.length; i++) {
      const before = agentRequests[i - 1].messages;
      const after = agentRequests[i].messages;
      expect(after[0]).toEqual(before[0]);
      expect(after[1]).toEqual(before[1]);
      expect(agentRequests[i].tools).toEqual(agentRequests[0].tools);
      // Everything but the observations of the previous turn is byte-identical.
      const lastAssistant = before.map((m) => m.role).lastIndexOf('assistant');
      const stable = before.slice(0, lastAssistant + 1);
      expect(after.slice(0, stable.length)).toEqual(stable);
    }
  });
});

describe('runAgent, small-model replies', () => {
  it('in native mode reads a call written as text, and a tool name in other case or with a prefix', async () => {
    const { events, last } = await run([
      say('<tool_call>{"name": "SubmitPlan", "arguments": ' + JSON.stringify(PLAN) + '}</tool_call>'),
      call('functions.execute_sql', `{'sql': "${SQL}",}`),
      call('done', `{'sql': "${SQL}",}`),
      EXPLAINED,
    ]);
    expect(of(events, 'action').map((a) => a.tool)).toEqual(['submit_plan', 'execute_sql', 'done']);
    expect(last).toMatchObject({ type: 'final', sql: SQL });
  });
});

describe('runAgent, a turn of very many calls (issue 28)', () => {
  it('runs the first MAX_CALLS_PER_TURN, tells the model the rest were not run, and goes on', async () => {
    const many: ChatResponse = {
      text: '',
      toolCalls: Array.from({ length: 10_000 }, (_, i) => ({
        id: `m${i}`,
        name: 'search_value',
        arguments: JSON.stringify({ query: `Paris ${i}` }),
      })),
      usage,
      finishReason: 'tool_calls',
    };
    const { events, requests } = await run([call('submit_plan', PLAN), many, call('done', { sql: SQL }), EXPLAINED]);
    const actions = of(events, 'action').filter((e) => e.tool === 'search_value');
    expect(actions).toHaveLength(MAX_CALLS_PER_TURN);
    expect(observations(events)).toContain(
      `Only the first ${MAX_CALLS_PER_TURN} of the 10000 calls of that turn were run: make at most ${MAX_CALLS_PER_TURN} calls in one turn.`,
    );
    // The conversation keeps only the calls that were run, each with its answer.
    const next = requests[2].messages;
    const assistant = next.flatMap((m) =>
      m.role === 'assistant' && m.toolCalls?.some((c) => c.id === 'm0') ? [m.toolCalls] : [],
    );
    expect(assistant[0]).toHaveLength(MAX_CALLS_PER_TURN);
    expect(next.filter((m) => m.role === 'tool' && m.toolCallId.startsWith('m'))).toHaveLength(MAX_CALLS_PER_TURN);
    expect(events[events.length - 1].type).toBe('final');
  });
});
