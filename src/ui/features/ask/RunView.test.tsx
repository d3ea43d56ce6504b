// @vitest-environment jsdom
// The run view fed with a recorded event sequence (the scripted demo on public/demo.sqlite,
// recorded with `dowser ask --provider scripted --json`, thought deltas left out).

import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/agent/events';
import type { AskRun } from '../../store/ask-store';
import { schemaOf } from '../../../test-support/schema-of';
import { fakeServices, renderWithServices } from '../../test-support/render';
import recorded from './fixtures/demo-run.events.json';
import { RunView } from './RunView';

const events = recorded as AgentEvent[];

function runOf(evs: AgentEvent[], patch: Partial<AskRun> = {}): AskRun {
  return {
    id: 'r1',
    dbId: 'db1',
    dbName: 'demo.sqlite',
    question: 'Which 5 customers in Canada spent the most on delivered orders in 2024?',
    hints: '',
    provider: 'openai',
    model: 'qwen2.5:7b',
    status: 'done',
    events: evs,
    streaming: '',
    startedAt: 1000,
    endedAt: 5200,
    ...patch,
  };
}

const table = { columns: ['customer_id integer', 'country text'], rows: 10 };
const schema = schemaOf({ customers: table, orders: table, order_items: table });

afterEach(cleanup);

describe('RunView', () => {
  it('shows the plan, one card per tool step and the answer of a finished run', () => {
    renderWithServices(<RunView run={runOf(events)} />);
    const plan = screen.getByTestId('plan-card');
    expect(within(plan).getByText('Which customers live in Canada?')).toBeTruthy();
    const steps = screen.getAllByTestId('step');
    expect(steps.map((s) => s.dataset.tool)).toEqual([
      'submit_plan',
      'search_value',
      'search_value',
      'find_shortest_path',
      'execute_sql',
      'done',
    ]);
    const final = screen.getByTestId('final');
    expect(within(final).getByTestId('final-sql').textContent).toContain("WHERE c.country = 'Canada'");
    expect(within(final).getByTestId('verdict').textContent).toMatch(/match/);
    expect(within(final).getByTestId('explanation').textContent).toContain('five customers who live in Canada');
    expect(within(within(final).getByTestId('final-rows')).getAllByRole('row')).toHaveLength(6); // header + 5
    expect(screen.getByText(/openai · qwen2.5:7b/).textContent).toMatch(/in \/ .* out tokens \(estimated\) · 4\.2 s/);
    expect(screen.queryByTestId('streaming')).toBeNull();
  });

  it('says why each model request was made, and an answer nothing called a check for', () => {
    const at = { step: 1, at: 1 };
    const total = { inputTokens: 700, outputTokens: 40, cachedInputTokens: 0, estimated: true };
    const oneRequest: AgentEvent[] = [
      { type: 'route', path: 'grounded', reason: 'one request with every column.', ...at },
      { type: 'usage', usage: null, total, ms: 5, phase: 'agent', why: 'the answer', ...at },
      { type: 'sql', sql: 'SELECT 3', ok: true, summary: '1 row', ...at },
      {
        type: 'final',
        sql: 'SELECT 3',
        columns: ['n'],
        rows: [[3]],
        totalRows: 1,
        truncated: false,
        explanation: 'There are 3.',
        verdict: 'unchecked',
        ...at,
      },
    ];
    renderWithServices(<RunView run={runOf(oneRequest, { mode: 'auto' })} />);
    expect(screen.getByTestId('requests').textContent).toBe('1 model request: 1. the answer');
    expect(screen.getByTestId('verdict').textContent).toBe(
      'answered in one request: nothing in the result called for a check',
    );
  });

  it('streams the current turn while running and shows no answer yet', () => {
    const upToSearch = events.slice(
      0,
      events.findIndex((e) => e.type === 'sql'),
    );
    renderWithServices(
      <RunView run={runOf(upToSearch, { status: 'running', endedAt: undefined, streaming: 'I will join' })} />,
    );
    expect(screen.getByTestId('streaming').textContent).toBe('I will join');
    expect(screen.queryByTestId('final')).toBeNull();
    expect(screen.queryByText(/Export/)).toBeNull();
  });

  it('says why a run failed, with its code', () => {
    const failed: AgentEvent = {
      type: 'error',
      code: 'turn_limit',
      message: 'No answer within 12 turns.',
      step: 12,
      at: 9,
    };
    renderWithServices(<RunView run={runOf([...events.slice(0, 5), failed], { status: 'failed' })} />);
    const alert = screen.getByTestId('run-error');
    expect(alert.dataset.code).toBe('turn_limit');
    expect(alert.textContent).toBe('No answer within 12 turns.');
  });

  it('renders model and database text as text, never as markup', () => {
    const hostile: AgentEvent[] = [
      { type: 'thought', text: '<img src=x onerror="window.hacked=1">', step: 1, at: 1 },
      { type: 'action', tool: 'execute_sql', args: { sql: '<script>1</script>' }, step: 1, at: 1 },
      { type: 'observation', tool: 'execute_sql', text: '<b>bold</b>', ok: true, ms: 1, step: 1, at: 1 },
    ];
    const { container } = renderWithServices(<RunView run={runOf(hostile, { status: 'running' })} />);
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="window.hacked=1">');
  });

  it('opens the plan editor with the schema from the engine, and Cancel closes it', async () => {
    const services = fakeServices({ engine: { introspect: async () => schema } as never });
    renderWithServices(<RunView run={runOf(events)} />, services);
    await userEvent.click(within(screen.getByTestId('plan-card')).getByRole('button', { name: 'edit' }));
    expect(screen.getAllByTestId('plan-item')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Regenerate from plan' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryAllByTestId('plan-item')).toHaveLength(0);
  });

  it('puts the focus in the editor when it opens; Escape closes it and gives the focus back to "edit"', async () => {
    const services = fakeServices({ engine: { introspect: async () => schema } as never });
    renderWithServices(<RunView run={runOf(events)} />, services);
    const edit = within(screen.getByTestId('plan-card')).getByRole('button', { name: 'edit' });
    await userEvent.click(edit);
    expect(document.activeElement).toBe(screen.getByLabelText('Sub-question 1'));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryAllByTestId('plan-item')).toHaveLength(0);
    expect(document.activeElement).toBe(within(screen.getByTestId('plan-card')).getByRole('button', { name: 'edit' }));
  });
});

describe('RunView, what the model read', () => {
  it('marks an observation whose values the privacy level withheld, with what the model read', () => {
    const withheld: AgentEvent[] = [
      { type: 'action', tool: 'execute_sql', args: { sql: 'SELECT count(*) FROM t' }, step: 1, at: 1 },
      {
        type: 'observation',
        tool: 'execute_sql',
        text: 'count(*)\n42',
        modelText: 'count(*)\n(row values withheld by the privacy level: counts and column names only)',
        ok: true,
        ms: 1,
        step: 1,
        at: 1,
      },
    ];
    renderWithServices(<RunView run={runOf(withheld, { status: 'running' })} />);
    const view = screen.getByTestId('model-view');
    expect(view.textContent).toContain('Values withheld from the model by the privacy level');
    expect(view.textContent).toContain('row values withheld');
    expect(view.textContent).not.toContain('42');
  });
});

describe('RunView, an unverified answer', () => {
  it('marks an answer offered at the turn limit as unverified', () => {
    const finalIndex = events.findIndex((e) => e.type === 'final');
    const final = { ...events[finalIndex], unverified: true } as AgentEvent;
    renderWithServices(<RunView run={runOf([...events.slice(0, finalIndex), final])} />);
    expect(screen.getByTestId('unverified').textContent).toMatch(/ran out of turns/);
  });
});

describe('RunView, cached tokens', () => {
  it('shows the part of the input the provider read from its cache, per step and in total', () => {
    const usage = { inputTokens: 2210, outputTokens: 31, cachedInputTokens: 1920, estimated: false };
    const withCache = events.map((e) =>
      e.type === 'usage'
        ? ({ ...e, usage, total: { ...e.total, cachedInputTokens: 1920 * e.step, estimated: false } } as AgentEvent)
        : e,
    );
    renderWithServices(<RunView run={runOf(withCache)} />);
    expect(screen.getAllByTestId('step')[0].textContent).toContain('2210 in (1920 cached) / 31 out tokens');
    expect(screen.getByText(/openai · qwen2.5:7b/).textContent).toMatch(/in \([\d,]+ cached\) \/ [\d,]+ out tokens/);
  });
});
