import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb } from '../../test-support/build-db';
import { executorFor } from '../executor';
import { createScriptedModel, type ScriptedTurn } from '../llm/scripted';
import { codeColumns } from '../prompt/grounded-schema';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import type { Schema } from '../types';
import { NO_SIGNAL } from './ask-user';
import { runAuto } from './auto';
import { codeAssumptions } from './code-evidence';
import type { AgentEvent } from './events';
import { runAgent } from './loop';

// A clinic (issue 37, "codes without meaning"): `sex` holds "0" and "1" and nothing says which is
// which; `smoker` holds "Y"/"N", letters that say it themselves; `ward` is a key of digits.
const CLINIC_SQL = `
CREATE TABLE wards (id TEXT PRIMARY KEY, title TEXT);
INSERT INTO wards VALUES ('1', 'North'), ('2', 'South');
CREATE TABLE patients (id INTEGER PRIMARY KEY, name TEXT, sex TEXT, smoker TEXT, ward TEXT REFERENCES wards(id));
INSERT INTO patients VALUES
  (1, 'Aino Berg', '1', 'N', '1'), (2, 'Bram Oost', '0', 'Y', '2'), (3, 'Cleo Dahl', '1', 'N', '2'),
  (4, 'Dario Ruiz', '0', 'N', '1'), (5, 'Eda Kurt', '1', 'Y', '1'), (6, 'Femi Ade', '0', 'N', '2');
`;

let toolbox: Toolbox;
let schema: Schema;
beforeAll(async () => {
  const engine = await createNodeEngine();
  await engine.open({ id: 'c', name: 'c', bytes: await buildDb(CLINIC_SQL) });
  schema = await engine.introspect('c');
  toolbox = await buildToolbox(executorFor(engine, 'c'), schema);
});

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

async function collect(run: AsyncGenerator<AgentEvent>) {
  const events: AgentEvent[] = [];
  for await (const e of run) events.push(e);
  return events;
}

describe('codes whose meaning the data does not store', () => {
  it('are the digit-coded columns that are no key', async () => {
    const found = codeColumns(schema, await toolbox.grounding());
    expect(found).toEqual([{ table: 'patients', column: 'sex', codes: expect.arrayContaining(['0', '1']) }]);
  });

  it('are assumed where a query compares one, unless the question or the hints say which code is meant', async () => {
    const codes = codeColumns(schema, await toolbox.grounding());
    const women = "SELECT count(*) FROM patients p WHERE p.sex = '1' AND smoker = 'N'";
    expect(codeAssumptions(women, schema, codes, { question: 'How many women do not smoke?' })).toEqual([
      expect.objectContaining({ table: 'patients', column: 'sex', compared: ['1'] }),
    ]);
    // The person's hints define it; the question names the code after the column's name.
    expect(
      codeAssumptions(women, schema, codes, { question: 'How many women?', hints: "women are sex = '1'" }),
    ).toEqual([]);
    expect(codeAssumptions(women, schema, codes, { question: 'How many patients of sex 1 smoke?' })).toEqual([]);
    expect(codeAssumptions("SELECT name FROM patients WHERE ward = '1'", schema, codes, { question: 'q' })).toEqual([]);
  });

  it('are said in the answer Auto gives, at no request', async () => {
    const ask = async (question: string, hints?: string) => {
      const model = createScriptedModel([
        { text: "```sql\nSELECT count(*) FROM patients WHERE sex = '1'\n```\nExplanation: The women counted." },
      ]);
      const q = { question, hints, model, tools: toolbox, schema, links: toolbox.link(question) };
      return (await collect(runAuto(q))).at(-1)!;
    };
    expect(await ask('How many patients are women?')).toMatchObject({
      type: 'final',
      rows: [[3]],
      note: 'patients.sex holds codes ("0", "1") whose meaning the data does not store: the query took "1" for what the question names.',
    });
    expect(await ask('How many patients are women?', "women: sex = '1'")).not.toHaveProperty('note');
  });

  it('give the agent a reason to ask the person, and the answer says the code it took', async () => {
    const run = async (where: string) => {
      const sql = `SELECT name FROM patients WHERE ${where}`;
      const turns: ScriptedTurn[] = [
        { toolCalls: [{ name: 'execute_sql', arguments: { sql } }] },
        { toolCalls: [{ name: 'ask_user', arguments: { question: 'Which code means female?', options: ['1', '0'] } }] },
        { toolCalls: [{ name: 'done', arguments: { sql, explanation: 'The women.' } }] },
      ];
      return collect(
        runAgent({
          question: 'Which patients are women?',
          model: createScriptedModel(turns),
          tools: toolbox,
          schema,
          askUser: async () => '1',
          confirmedPlan: { sub_questions: [{ text: 'women', tables: [{ table: 'patients', columns: ['sex'] }] }] },
        }),
      );
    };
    const coded = await run("sex = '1'");
    const [ran, asked] = of(coded, 'observation').map((o) => o.text);
    expect(ran).toContain('patients.sex holds codes ("0", "1") whose meaning the data does not store');
    expect(ran).toContain('ask the person which code is which (ask_user)');
    expect(asked).toContain('The person answered: "1"');
    expect(coded.at(-1)).toMatchObject({ type: 'final', note: expect.stringContaining('the query took "1"') });
    // Letters that say what they mean are no such reason: asking is refused.
    const lettered = await run("smoker = 'Y'");
    expect(of(lettered, 'observation')[1].text).toContain(NO_SIGNAL);
    expect(lettered.at(-1)).not.toHaveProperty('note');
  });
});
