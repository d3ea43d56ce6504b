import { describe, expect, it } from 'vitest';
import type { Schema, TableInfo } from '../types';
import { planInput, planObservation, validatePlan } from './plan';

const table = (name: string, columns: string[]): TableInfo => ({
  name, kind: 'table', sql: null, primaryKey: [], withoutRowid: false, foreignKeys: [], indexes: [], rowCount: 1,
  columns: columns.map((c) => ({ name: c, declaredType: 'TEXT', affinity: 'TEXT', notNull: false, defaultValue: null, pkIndex: 0, hidden: false })),
});

const schema: Schema = { tables: [table('Customers', ['CustomerId', 'City']), table('Orders', ['OrderId', 'CustomerId', 'Total'])], foreignKeys: [] };

describe('validatePlan', () => {
  it('puts names in the schema spelling, accepting table.column and quotes', () => {
    const plan = planInput.parse({ sub_questions: [{ text: 'x', tables: [{ table: '"customers"', columns: ['customers.city', '`customerid`'] }] }] });
    const out = validatePlan(plan, schema);
    expect(out.problems).toEqual([]);
    expect(out.plan.sub_questions[0].tables[0]).toEqual({ table: 'Customers', columns: ['City', 'CustomerId'] });
  });

  it('reports unknown tables and columns with close names', () => {
    const plan = planInput.parse({ sub_questions: [
      { text: 'a', tables: [{ table: 'Customer', columns: [] }] },
      { text: 'b', tables: [{ table: 'orders', columns: ['totl', 'city'] }] },
    ] });
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
    expect(planInput.parse({ sub_questions: [{ text: ' a ' }] })).toEqual({ sub_questions: [{ text: 'a', tables: [] }] });
  });
});
