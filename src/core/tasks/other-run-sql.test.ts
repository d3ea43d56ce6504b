// Explain, Fix and Optimize on SQL a run wrote (issue 35's marker test): an answer at full put in
// the editor, the level lowered, then a task on it. Its literals and its expression columns' go to
// the model as values, and the rewrite the model sends back gets them again before it runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeEngine } from '../../adapters/sqljs/node';
import { buildDb, SHOP_SQL } from '../../test-support/build-db';
import { recordedModel } from '../../test-support/recorded-model';
import { executorFor, type SqlExecutor } from '../executor';
import type { PrivacyLevel } from '../privacy/disclose';
import { buildToolbox, type Toolbox } from '../tools/toolbox';
import type { Schema } from '../types';
import { explainSql } from './explain-sql';
import { fixSql } from './fix-sql';
import { optimizeSql } from './optimize-sql';
import { restoreWithheld, WITHHELD_KEPT } from './other-run-sql';

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

/** What a model wrote at full: a literal, and an expression SQLite names by its text. */
const ANSWER = "SELECT max(CASE WHEN name = 'Ada' THEN city END) FROM customers WHERE joined > '2024-01-01'";
const schemaOnly = { level: 'schema' as PrivacyLevel, question: '' };

describe('restoreWithheld', () => {
  it('puts each withheld literal back where the rewrite kept its place, in order', () => {
    const original = "SELECT id FROM customers WHERE name = 'Ada' AND id > 1 LIMIT 3";
    const inOrder = "SELECT id FROM customers WHERE name = '<value withheld>' AND id > <value withheld> LIMIT 3";
    expect(restoreWithheld(inOrder, original, schemaOnly, schema).sql).toBe(original);
  });

  it('guesses nothing when the places do not match the values; a value the level lets out is not a place', () => {
    const original = "SELECT id FROM customers WHERE name = 'Ada' OR name = 'Cy'";
    expect(
      restoreWithheld("SELECT id FROM customers WHERE name = '<value withheld>'", original, schemaOnly, schema),
    ).toMatchObject({ unresolved: true });
    const matches = { level: 'matches' as PrivacyLevel, question: 'Is Ada there?' };
    expect(
      restoreWithheld(
        "SELECT id FROM customers WHERE name = 'Ada' OR name = '<value withheld>'",
        original,
        matches,
        schema,
      ).sql,
    ).toBe(original);
    expect(restoreWithheld('SELECT 1', original, schemaOnly, schema)).toEqual({ sql: 'SELECT 1', unresolved: false });
  });
});

describe('tasks on SQL another run wrote, below full', () => {
  it('Explain sends neither its literals nor its expression column', async () => {
    const { model, sent } = recorded([{ text: 'Explanation: The city of one customer.\nVerdict: match' }]);
    const report = await explainSql({
      sql: ANSWER,
      schema,
      model,
      tools: toolbox,
      privacy: 'schema',
      sqlFromAnotherRun: true,
    });
    expect(report.explanation).toBe('The city of one customer.');
    expect(sent()).not.toContain('Ada');
    expect(sent()).not.toContain('2024-01-01');
    expect(sent()).toContain("name = '<value withheld>'");
  });

  it('…whereas the SQL the person wrote is theirs as written', async () => {
    const { model, sent } = recorded([{ text: 'Explanation: The city of one customer.\nVerdict: match' }]);
    await explainSql({ sql: ANSWER, schema, model, tools: toolbox, privacy: 'schema' });
    expect(sent()).toContain("name = 'Ada'");
  });

  it('Fix gets a rewrite with the places kept, and runs it with the values put back', async () => {
    const { model, sent } = recorded([
      { text: "SELECT city FROM customers WHERE name = '<value withheld>' AND joined > '<value withheld>'" },
    ]);
    const report = await fixSql({
      sql: ANSWER,
      note: 'I want the city as a plain column',
      schema,
      model,
      tools: toolbox,
      privacy: 'schema',
      sqlFromAnotherRun: true,
    });
    expect(sent()).not.toContain('Ada');
    expect(report.status).toBe('fixed');
    expect(report.fixed?.sql).toBe("SELECT city FROM customers WHERE name = 'Ada' AND joined > '2024-01-01'");
    expect(report.fixed?.outcome?.rows).toEqual([['Paris']]);
  });

  it('Optimize compares the rewrite with its values put back; places it cannot fill are a refusal', async () => {
    const good = recorded([
      {
        text: "SELECT max(CASE WHEN name = '<value withheld>' THEN city END) FROM customers WHERE joined > '<value withheld>' AND 1",
      },
    ]);
    const report = await optimizeSql({
      sql: ANSWER,
      schema,
      model: good.model,
      exec,
      privacy: 'schema',
      sqlFromAnotherRun: true,
    });
    expect(good.sent()).not.toContain('Ada');
    expect(report.rewrite?.sql).toContain("name = 'Ada'");
    expect(report.sameResults).toBe(true);
    const bad = recorded([{ text: "SELECT city FROM customers WHERE name = '<value withheld>'" }]);
    const refused = await optimizeSql({
      sql: ANSWER,
      schema,
      model: bad.model,
      exec,
      privacy: 'schema',
      sqlFromAnotherRun: true,
    });
    expect(refused).toMatchObject({ status: 'rejected', reason: WITHHELD_KEPT });
  });
});
