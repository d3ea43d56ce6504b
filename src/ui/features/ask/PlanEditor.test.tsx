// @vitest-environment jsdom
// The plan editor as a person uses it, on the plan of a recorded run.

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/agent/events';
import type { Plan } from '../../../core/agent/plan';
import { schemaOf } from '../../../test-support/schema-of';
import recorded from './fixtures/demo-run.events.json';
import { PlanEditor } from './PlanEditor';

const recordedPlan = (recorded as AgentEvent[]).find((e) => e.type === 'plan')!;
const plan = (recordedPlan as Extract<AgentEvent, { type: 'plan' }>).plan;

const schema = schemaOf({ customers: ['customer_id', 'city', 'country'], orders: ['order_id', 'status'] });

function Harness({ onPlan }: { onPlan: (p: Plan) => void }) {
  const [p, setP] = useState<Plan>(structuredClone(plan));
  return (
    <PlanEditor
      plan={p}
      schema={schema}
      onChange={(next) => {
        setP(next);
        onPlan(next);
      }}
    />
  );
}

afterEach(cleanup);

function setup() {
  let latest: Plan = plan;
  render(<Harness onPlan={(p) => (latest = p)} />);
  return { latest: () => latest };
}

describe('PlanEditor', () => {
  it('edits a sub-question text', async () => {
    const s = setup();
    const first = screen.getByLabelText('Sub-question 1');
    await userEvent.clear(first);
    await userEvent.type(first, 'Which customers live in Quebec?');
    expect(s.latest().sub_questions[0].text).toBe('Which customers live in Quebec?');
  });

  it('moves, deletes and adds sub-questions by keyboard-reachable buttons', async () => {
    const s = setup();
    expect(screen.getByLabelText('Move sub-question 1 up')).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByLabelText('Move sub-question 1 down'));
    expect(s.latest().sub_questions.map((q) => q.text)[1]).toBe('Which customers live in Canada?');
    await userEvent.click(screen.getByLabelText('Delete sub-question 3'));
    expect(s.latest().sub_questions).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: '+ add a sub-question' }));
    expect(s.latest().sub_questions).toHaveLength(3);
    expect(s.latest().sub_questions[2]).toEqual({ text: '', tables: [] });
  });

  it('adds a chip only for a real table.column, case-insensitively, and removes chips', async () => {
    const s = setup();
    const input = screen.getByLabelText('Add a table or column to sub-question 1');
    await userEvent.type(input, 'CUSTOMERS.City{Enter}');
    expect(s.latest().sub_questions[0].tables[0].columns).toContain('city');
    await userEvent.type(input, 'customers.shoe_size{Enter}');
    expect(screen.getByRole('alert').textContent).toBe(
      '"customers.shoe_size" is not a table or table.column of this database.',
    );
    expect(s.latest().sub_questions[0].tables[0].columns).not.toContain('shoe_size');
    await userEvent.clear(input);
    await userEvent.type(input, 'orders{Enter}');
    expect(s.latest().sub_questions[0].tables.map((t) => t.table)).toEqual(['customers', 'orders']);
    await userEvent.click(screen.getByLabelText('Remove customers.country'));
    expect(s.latest().sub_questions[0].tables[0].columns).not.toContain('country');
  });
});
