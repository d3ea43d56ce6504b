// Issue 5 in the loop: a confirmed plan, pause after plan, ask_user, and the step check.
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { createScriptedModel, type ScriptedTurn } from '../llm/scripted';
import type { ChatRequest } from '../llm/types';
import { executorFor } from '../executor';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import type { Schema } from '../types';
import { checkStep } from './check-step';
import type { AgentEvent } from './events';
import { runAgent, type RunAgentOptions } from './loop';
import type { Plan } from './plan';

const PLAN: Plan = {
  sub_questions: [
    { text: 'Which customers are in Paris?', tables: [{ table: 'customers', columns: ['id', 'city'] }] },
    {
      text: 'What is the total of their paid orders?',
      tables: [{ table: 'orders', columns: ['customer_id', 'total', 'status'] }],
    },
  ],
};
const SQL =
  "SELECT sum(o.total) AS paid FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city = 'Paris' AND o.status = 'paid'";
const EXPLAINED: ScriptedTurn = {
  text: 'Explanation: The total of paid orders by customers in Paris.\nVerdict: match',
};
const t = (name: string, args: Record<string, unknown>, text?: string): ScriptedTurn => ({
  text,
  toolCalls: [{ name, arguments: args }],
});

let toolbox: Toolbox;
let schema: Schema;
beforeAll(async () => {
  const engine = await createNodeEngine();
  await engine.open({ id: 's', name: 's', bytes: await buildDb(SHOP_SQL) });
  schema = await engine.introspect('s');
  toolbox = await buildToolbox(executorFor(engine, 's'), schema);
});

/** Runs with the project's scripted model, recording every request it gets. */
async function run(turns: ScriptedTurn[], more: Partial<RunAgentOptions> = {}) {
  const scripted = createScriptedModel(turns);
  const requests: ChatRequest[] = [];
  const model = {
    ...scripted,
    stream: (req: ChatRequest) => {
      requests.push(req);
      return scripted.stream(req);
    },
  };
  const events: AgentEvent[] = [];
  for await (const e of runAgent({
    question: 'Total of paid orders from Paris?',
    model,
    tools: toolbox,
    schema,
    ...more,
  }))
    events.push(e);
  return { events, requests, last: events[events.length - 1] };
}

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
const observations = (events: AgentEvent[]) => of(events, 'observation').map((e) => e.text);

describe('runAgent with a confirmed plan', () => {
  it('carries the plan as confirmed, offers no submit_plan, reaches final', async () => {
    const { events, requests, last } = await run([t('execute_sql', { sql: SQL }), t('done', { sql: SQL }), EXPLAINED], {
      confirmedPlan: PLAN,
    });
    expect(events[0]).toMatchObject({ type: 'plan', confirmed: true, problems: [], step: 0 });
    const user = requests[0].messages[1].content;
    expect(user).toContain('Plan confirmed by the user');
    expect(user).toContain('1. "Which customers are in Paris?" — customers(id, city)');
    expect(user).not.toContain('Begin with the plan');
    expect(requests[0].messages[0].content).toContain('all sub-questions in view');
    expect(requests[0].tools?.map((x) => x.name)).not.toContain('submit_plan');
    expect(last).toMatchObject({ type: 'final', rows: [[30.5]], verdict: 'match' });
    // The check judges the answer by the person's steps too, not by the question alone (issue 25).
    const check = requests.at(-1)!.messages[1].content;
    expect(check).toContain('The person set these steps for the answer');
    expect(check).toContain('1. "Which customers are in Paris?"');
  });

  it('refuses a re-plan', async () => {
    const { events } = await run([t('submit_plan', PLAN)], { confirmedPlan: PLAN, maxTurns: 1 });
    expect(observations(events)[0]).toContain('the plan is confirmed by the user; do not re-plan');
  });

  it('ends with bad_plan before any model call when names are unknown', async () => {
    const bad = { sub_questions: [{ text: 'x', tables: [{ table: 'customer', columns: ['town'] }] }] };
    const { events, requests } = await run([], { confirmedPlan: bad });
    expect(requests).toHaveLength(0);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'error',
        code: 'bad_plan',
        message: expect.stringContaining('No table named "customer"'),
      }),
    ]);
  });
});

describe('runAgent, pause after plan', () => {
  it('waits, then continues with the model plan confirmed', async () => {
    const seen: Plan[] = [];
    const { events, last } = await run(
      [
        t('submit_plan', PLAN),
        t('submit_plan', PLAN),
        t('execute_sql', { sql: SQL }),
        t('done', { sql: SQL }),
        EXPLAINED,
      ],
      {
        onPlan: async (p) => {
          seen.push(p);
          return { action: 'continue' };
        },
      },
    );
    const types = events.map((e) => e.type);
    expect(types.indexOf('plan_waiting')).toBeGreaterThan(types.indexOf('plan'));
    expect(seen).toHaveLength(1);
    expect(of(events, 'plan')[1]).toMatchObject({ confirmed: true });
    expect(observations(events)[0]).toContain('The user confirmed it');
    expect(observations(events)[1]).toContain('do not re-plan');
    expect(last.type).toBe('final');
  });

  it('replaces the plan with the edited one and shows it to the model as data', async () => {
    const edit: Plan = {
      sub_questions: [{ text: 'Paid orders of "Paris" customers', tables: [{ table: 'orders', columns: ['total'] }] }],
    };
    const { events, requests } = await run([t('submit_plan', PLAN), t('search_column', { query: 'city' })], {
      maxTurns: 2,
      onPlan: async () => ({ action: 'continue', plan: edit }),
    });
    expect(of(events, 'plan')[1]).toMatchObject({ confirmed: true, edited: true, plan: edit });
    const obs = observations(events)[0];
    expect(obs).toContain('The user edited the plan');
    expect(obs).toContain('1. "Paid orders of \\"Paris\\" customers" — orders(total)');
    expect(requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: obs });
  });

  it('stops after the plan', async () => {
    const { events, last } = await run([t('submit_plan', PLAN)], { onPlan: async () => ({ action: 'stop' }) });
    expect(of(events, 'plan_waiting')).toHaveLength(1);
    expect(last).toMatchObject({ type: 'error', code: 'aborted', message: 'Stopped after the plan.' });
  });

  it('can be stopped while waiting', async () => {
    const controller = new AbortController();
    const { last } = await run([t('submit_plan', PLAN)], {
      signal: controller.signal,
      onPlan: () => {
        setTimeout(() => controller.abort(), 5);
        return new Promise(() => {});
      },
    });
    expect(last).toMatchObject({ type: 'error', code: 'aborted', message: 'Stopped.' });
  });
});

describe('runAgent, ask_user', () => {
  const ASK = { question: 'Which city column?', options: ['customers.city', 'stores.city'] };

  it('shows the question and returns the answer as an observation; a second ask is refused', async () => {
    const asked: unknown[] = [];
    const { events, requests } = await run(
      [
        t('submit_plan', PLAN),
        t('search_column', { query: 'status' }),
        t('ask_user', ASK),
        t('ask_user', { ...ASK, question: 'Again?' }),
      ],
      {
        maxTurns: 4,
        askUser: async (q) => {
          asked.push(q);
          return 'customers.city';
        },
      },
    );
    expect(asked).toEqual([ASK]);
    expect(of(events, 'ask')).toEqual([expect.objectContaining({ question: ASK.question, options: ASK.options })]);
    expect(observations(events)[2]).toBe('The person answered: "customers.city"');
    expect(observations(events)[3]).toContain('ask_user refused: you already asked once');
    expect(requests[0].tools?.map((x) => x.name)).toContain('ask_user');
    expect(requests[0].messages[0].content).toContain('the question does not say which');
  });

  it('without a person, tells the model to pick and say so', async () => {
    const { events } = await run(
      [t('submit_plan', PLAN), t('search_column', { query: 'status' }), t('ask_user', ASK)],
      {
        maxTurns: 3,
      },
    );
    expect(of(events, 'ask')).toHaveLength(0);
    expect(observations(events)[2]).toBe('No person is available to answer; pick the most likely option and say so.');
  });

  it('is refused when no tool result showed an ambiguity signal (asking stays rare)', async () => {
    const asked: unknown[] = [];
    const { events } = await run([t('submit_plan', PLAN), t('search_value', { query: 'Oslo' }), t('ask_user', ASK)], {
      maxTurns: 3,
      askUser: async (q) => {
        asked.push(q);
        return 'x';
      },
    });
    expect(asked).toEqual([]);
    expect(observations(events)[2]).toMatch(/^ask_user refused: no ambiguity was seen/);
  });

  it('refuses bad options', async () => {
    const { events } = await run([t('submit_plan', PLAN), t('ask_user', { question: 'q', options: [] })], {
      maxTurns: 2,
      askUser: async () => 'x',
    });
    expect(observations(events)[1]).toMatch(/^Bad arguments for ask_user: options/);
  });
});

describe('checkStep', () => {
  async function check(turns: ScriptedTurn[], index: number, plan: Plan = PLAN) {
    const model = createScriptedModel(turns);
    const events: AgentEvent[] = [];
    for await (const e of checkStep({ model, tools: toolbox, schema, plan, index })) events.push(e);
    return { events, last: events[events.length - 1], model };
  }

  it('ends with the first 5 rows of a small SQL for one sub-question', async () => {
    const sql =
      'SELECT o.id, o.total FROM orders o UNION ALL SELECT id + 10, total FROM orders UNION ALL SELECT id + 20, total FROM orders';
    const { events, last, model } = await check([t('search_column', { query: 'total' }), t('done', { sql })], 1);
    expect(last).toMatchObject({
      type: 'step_preview',
      subQuestion: 2,
      sql,
      columns: ['id', 'total'],
      truncated: true,
    });
    if (last.type !== 'step_preview') return;
    expect(last.rows).toHaveLength(5);
    expect(of(events, 'final')).toHaveLength(0);
    expect(model.remaining).toBe(0); // no explanation call
  });

  it('asks about the one sub-question only, with no plan or ask tools', async () => {
    const requests: ChatRequest[] = [];
    const scripted = createScriptedModel([t('submit_plan', PLAN)]);
    const model = {
      ...scripted,
      stream: (req: ChatRequest) => {
        requests.push(req);
        return scripted.stream(req);
      },
    };
    const events: AgentEvent[] = [];
    for await (const e of checkStep({ model, tools: toolbox, schema, plan: PLAN, index: 0 })) events.push(e);
    expect(requests[0].messages[1].content).toContain('sub-question 1 of 2');
    expect(requests[0].messages[1].content).toContain('"Which customers are in Paris?"');
    expect(requests[0].messages[1].content).not.toContain('paid orders');
    expect(requests[0].tools?.map((x) => x.name)).toEqual([
      'search_column',
      'search_value',
      'find_shortest_path',
      'execute_sql',
      'done',
    ]);
    expect(observations(events)[0]).toMatch(/^Unknown tool "submit_plan"/);
  });

  it('gives a later sub-question the whole question and the earlier sub-questions to read it by', async () => {
    const requests: ChatRequest[] = [];
    const scripted = createScriptedModel([t('search_column', { query: 'total' })]);
    const model = { ...scripted, stream: (req: ChatRequest) => (requests.push(req), scripted.stream(req)) };
    const question = 'Total of paid orders from Paris customers?';
    for await (const _ of checkStep({ model, tools: toolbox, schema, plan: PLAN, index: 1, question, now: () => 0 }))
      void _;
    const user = requests[0].messages[1].content;
    expect(user).toContain(`The whole question (for context): ${JSON.stringify(question)}`);
    expect(user).toContain('Earlier sub-questions');
    expect(user).toContain('"Which customers are in Paris?"');
    expect(user).toContain('sub-question 2 of 2');
  });

  it('stops within 5 turns, and refuses a step that does not exist', async () => {
    const turns = Array.from({ length: 6 }, (_, i) => t('search_column', { query: `c${i}` }));
    expect((await check(turns, 0)).last).toMatchObject({
      type: 'error',
      code: 'turn_limit',
      message: 'No answer within 5 turns.',
    });
    expect((await check([], 2)).last).toMatchObject({
      type: 'error',
      code: 'bad_plan',
      message: expect.stringContaining('no sub-question 3'),
    });
  });
});
