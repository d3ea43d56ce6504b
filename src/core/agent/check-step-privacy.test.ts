// Check this step on a plan written in another run (the page's plan card, issue 35's marker test):
// that run may have been at a fuller privacy level, so a value its plan quotes is a value, and
// under matches the words a value may be made of are the person's question's, not the plan's.
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { createScriptedModel, type ScriptedTurn } from '../llm/scripted';
import type { ChatModel, ChatRequest } from '../llm/types';
import type { PrivacyLevel } from '../privacy/disclose';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import type { Schema } from '../types';
import { buildStepPrompt, checkStep } from './check-step';
import { RULES_TEXT } from './prompt';
import type { Plan } from './plan';

const DB_SQL = `CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT, town TEXT);
INSERT INTO members (name, town) VALUES ('Orla Quenby', 'Pellmoor'), ('Tamsin Vorrel', 'Vantsby'), ('Edric Hallow', 'Vantsby');`;
const QUESTION = 'How many members live in Pellmoor?';
// What a model wrote at full: the plan quotes a town the question does not name.
const PLAN: Plan = {
  sub_questions: [{ text: "Members whose town is 'Vantsby'", tables: [{ table: 'members', columns: ['town'] }] }],
};
const turn = (name: string, args: Record<string, unknown>): ScriptedTurn => ({
  toolCalls: [{ name, arguments: args }],
});

let toolbox: Toolbox;
let schema: Schema;
beforeAll(async () => {
  const engine = await createNodeEngine();
  await engine.open({ id: 'm', name: 'm', bytes: await buildDb(DB_SQL) });
  schema = await engine.introspect('m');
  toolbox = await buildToolbox(executorFor(engine, 'm'), schema);
});

/** Every request text of one check: a lookup one letter off the town, then the town's rows. */
async function sent(privacy: PrivacyLevel, planFromAnotherRun: boolean): Promise<string> {
  const scripted = createScriptedModel([
    turn('search_value', { query: 'Vantsbi' }),
    turn('done', { sql: "SELECT name, town FROM members WHERE town LIKE 'Vant%'" }),
  ]);
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    ...scripted,
    stream: (req) => {
      requests.push(req);
      return scripted.stream(req);
    },
  };
  const options = { model, privacy, tools: toolbox, schema, plan: PLAN, index: 0, question: QUESTION };
  for await (const e of checkStep({ ...options, planFromAnotherRun })) void e;
  expect(requests.length).toBeGreaterThan(0);
  return JSON.stringify(requests.map((r) => r.messages));
}

describe('check this step on a plan from another run', () => {
  for (const level of ['schema', 'matches'] as const)
    it(`under ${level} the plan's quoted value and the rows it finds stay back`, async () => {
      const text = await sent(level, true);
      expect(text).not.toContain('Vantsby');
      expect(text).not.toContain('Tamsin');
      expect(text).toContain('Members whose town is');
    });

  it('under full the same check sends them (what the level keeps back is there)', async () => {
    const text = await sent('full', true);
    expect(text).toContain('Vantsby');
  });

  it("a plan the person gave (the CLI's --plan file) is sent as the person wrote it", async () => {
    expect(await sent('schema', false)).toContain("Members whose town is 'Vantsby'");
  });
});

describe('the step prompt', () => {
  // Found by the marker test: the rules went in as the function that picks them, its source text.
  it('carries the rules for its tool mode, not the function that picks them', () => {
    const text = buildStepPrompt(PLAN, 0, schema, 'text').system;
    expect(text).toContain(RULES_TEXT);
    const native = buildStepPrompt(PLAN, 0, schema, 'native').system;
    expect(native).toContain('calls that do not depend on each other go in one turn');
    for (const s of [text, native]) expect(s).not.toContain('=>');
  });
});
