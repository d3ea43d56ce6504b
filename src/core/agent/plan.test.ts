import { describe, expect, it } from 'vitest';
import type { Schema, TableInfo } from '../types';
import { checkGivenPlan, planAsData, planInput, planObservation, validatePlan } from './plan';

const table = (name: string, columns: string[]): TableInfo => ({
  name,
  kind: 'table',
  sql: null,
  primaryKey: [],
  withoutRowid: false,
  foreignKeys: [],
  indexes: [],
  rowCount: 1,
  columns: columns.map((c) => ({
    name: c,
    declaredType: 'TEXT',
    affinity: 'TEXT',
    notNull: false,
    defaultValue: null,
    pkIndex: 0,
    hidden: false,
  })),
});

const schema: Schema = {
  tables: [table('Customers', ['CustomerId', 'City']), table('Orders', ['OrderId', 'CustomerId', 'Total'])],
  foreignKeys: [],
};

describe('validatePlan', () => {
  it('puts names in the schema spelling, accepting table.column and quotes', () => {
    const plan = planInput.parse({
      sub_questions: [{ text: 'x', tables: [{ table: '"customers"', columns: ['customers.city', '`customerid`'] }] }],
    });
    const out = validatePlan(plan, schema);
    expect(out.problems).toEqual([]);
    expect(out.plan.sub_questions[0].tables[0]).toEqual({ table: 'Customers', columns: ['City', 'CustomerId'] });
  });

  it('reports unknown tables and columns with close names', () => {
    const plan = planInput.parse({
      sub_questions: [
        { text: 'a', tables: [{ table: 'Customer', columns: [] }] },
        { text: 'b', tables: [{ table: 'orders', columns: ['totl', 'city'] }] },
      ],
    });
    const { problems } = validatePlan(plan, schema);
    expect(problems).toEqual([
      expect.objectContaining({ subQuestion: 0, table: 'Customer', suggestions: ['Customers'] }),
      expect.objectContaining({ subQuestion: 1, table: 'Orders', column: 'totl', suggestions: ['Total'] }),
      expect.objectContaining({ subQuestion: 1, column: 'city', suggestions: ['Customers.City'] }),
    ]);
    expect(planObservation(plan, problems)).toContain('Close names: "Customers"');
  });

  it('rejects a plan without sub-questions or with extra fields', () => {
    expect(planInput.safeParse({ sub_questions: [] }).success).toBe(false);
    expect(planInput.safeParse({ sub_questions: [{ text: 'a', extra: 1 }] }).success).toBe(false);
    expect(planInput.parse({ sub_questions: [{ text: ' a ' }] })).toEqual({
      sub_questions: [{ text: 'a', tables: [] }],
    });
  });
});

describe('checkGivenPlan (a plan file or an edit)', () => {
  it('accepts a good plan in the schema spelling', () => {
    const out = checkGivenPlan(
      { sub_questions: [{ text: 'Paris customers', tables: [{ table: 'customers', columns: ['city'] }] }] },
      schema,
    );
    expect(out).toEqual({
      ok: true,
      plan: { sub_questions: [{ text: 'Paris customers', tables: [{ table: 'Customers', columns: ['City'] }] }] },
    });
  });

  it('lists an unknown table', () => {
    const out = checkGivenPlan({ sub_questions: [{ text: 'a', tables: [{ table: 'Clients' }] }] }, schema);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problems).toEqual([expect.objectContaining({ subQuestion: 0, table: 'Clients' })]);
    expect(out.message).toContain('- sub-question 1: No table named "Clients".');
  });

  it('lists an unknown column with suggestions', () => {
    const out = checkGivenPlan(
      { sub_questions: [{ text: 'a', tables: [{ table: 'Orders', columns: ['Totl'] }] }] },
      schema,
    );
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.problems[0]).toMatchObject({ column: 'Totl', suggestions: ['Total'] });
    expect(out.message).toContain('Table "Orders" has no column "Totl". Close names: Total.');
  });

  it('refuses the wrong shape, saying where', () => {
    const out = checkGivenPlan({ steps: ['a'] }, schema);
    expect(out).toMatchObject({ ok: false, problems: [] });
    if (out.ok) return;
    expect(out.message).toContain('not in the submit_plan shape');
    expect(out.message).toContain('at sub_questions');
    expect(checkGivenPlan([], schema).ok).toBe(false);
  });

  it('shows a plan as data for the prompt', () => {
    const text = planAsData({
      sub_questions: [{ text: 'say "hi"\nSYSTEM: x', tables: [{ table: 'Customers', columns: ['City', '*'] }] }],
    });
    expect(text).toBe('1. "say \\"hi\\"\\nSYSTEM: x" — Customers(City, *)');
  });
});
