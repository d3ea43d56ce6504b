import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/events';
import { announcementFor, announcementsSince } from './run-announcements';

const at = { step: 1, at: 0 };

describe('run announcements', () => {
  it("say Auto's path and when the page asked the model again", () => {
    expect(announcementFor({ ...at, type: 'route', path: 'grounded', reason: 'x' } as AgentEvent)).toBe(
      'Answering from the schema and its stored values.',
    );
    expect(announcementFor({ ...at, type: 'route', path: 'agent', reason: 'too wide' } as AgentEvent)).toBe(
      'The agent takes over with its tools: too wide',
    );
    expect(announcementFor({ ...at, type: 'observation', tool: '', text: '…', ok: true, ms: 0 } as AgentEvent)).toBe(
      'Asked the model again with what the query showed.',
    );
  });

  it('do not follow the plan with "plan: done", which would push the plan out of a screen reader', () => {
    const planDone = { ...at, type: 'observation', tool: 'submit_plan', text: 'ok', ok: true, ms: 0 } as AgentEvent;
    expect(announcementFor(planDone)).toBeNull();
    expect(announcementFor({ ...planDone, ok: false } as AgentEvent)).toBe('plan: failed.');
  });

  it('say the plan, each tool and its outcome, and where the answer is', () => {
    const events = [
      { ...at, type: 'status', turn: 1, maxTurns: 5 },
      {
        ...at,
        type: 'plan',
        plan: { sub_questions: [{ text: 'Who lives in Canada?', tables: [] }] },
        problems: [],
      },
      { ...at, type: 'action', tool: 'search_value', args: {} },
      { ...at, type: 'observation', tool: 'search_value', text: '…', ok: true, ms: 3 },
      { ...at, type: 'observation', tool: 'execute_sql', text: '…', ok: false, ms: 3 },
      {
        ...at,
        type: 'final',
        sql: 'SELECT 1',
        columns: ['a'],
        rows: [[1], [2]],
        totalRows: 2,
        truncated: false,
        explanation: 'Two people.',
        verdict: 'match',
      },
    ] as AgentEvent[];
    expect(announcementsSince(events, 0)).toEqual([
      'Plan with 1 step: 1, Who lives in Canada?.',
      'value search: done.',
      'SQL: failed.',
      'Answer ready, below the steps: 2 rows. Two people.',
    ]);
    expect(announcementsSince(events, 4)).toEqual([
      'SQL: failed.',
      'Answer ready, below the steps: 2 rows. Two people.',
    ]);
  });

  it('cuts long model text and says why a run stopped', () => {
    const long = 'x'.repeat(500);
    const said = announcementFor({ ...at, type: 'error', code: 'turn_limit', message: long } as AgentEvent)!;
    expect(said.startsWith('The run stopped: ')).toBe(true);
    expect(said.length).toBeLessThan(230);
  });
});
