import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/agent/events';
import type { AskRun } from '../../store/ask-store';
import { differingFacts, runFacts } from './history-facts';

const final = (totalRows: number, verdict: 'match' | 'mismatch'): AgentEvent => ({
  type: 'final',
  sql: 'SELECT 1',
  columns: ['x'],
  rows: [[1]],
  totalRows,
  truncated: false,
  explanation: null,
  verdict,
  step: 3,
  at: 0,
});

const run = (id: string, question: string, patch: Partial<AskRun> = {}): AskRun => ({
  id,
  dbId: 'db',
  dbName: 'shop.sqlite',
  question,
  hints: '',
  provider: 'openai',
  model: 'm1',
  status: 'done',
  events: [final(3, 'match')],
  streaming: '',
  startedAt: 0,
  ...patch,
});

describe('history facts', () => {
  it('names model, plan, rows and verdict of a run', () => {
    expect(runFacts(run('a', 'q'))).toEqual({
      model: 'openai · m1',
      plan: 'model’s plan',
      rows: '3 rows',
      verdict: '✓ matches',
    });
    expect(runFacts(run('b', 'q', { status: 'failed', events: [] }))).toMatchObject({
      rows: 'no answer',
      verdict: 'failed',
    });
  });

  it('marks only what differs between runs of the same question', () => {
    const runs = [
      run('a', 'Top customers?'),
      run('b', 'top customers? ', {
        model: 'm2',
        confirmedPlan: { sub_questions: [] },
        events: [final(5, 'mismatch')],
      }),
      run('c', 'Another question', { model: 'm3' }),
    ];
    const d = differingFacts(runs);
    expect([...d.get('a')!].sort()).toEqual(['model', 'plan', 'rows', 'verdict']);
    expect([...d.get('b')!].sort()).toEqual(['model', 'plan', 'rows', 'verdict']);
    expect(d.get('c')!.size).toBe(0);
    expect(differingFacts([run('a', 'q'), run('b', 'q', { model: 'm2' })]).get('a')).toEqual(new Set(['model']));
  });
});
