import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import type { AskRun } from '../store/ask-store';
import { createRunHistory } from './run-history';

const run = (id: string, dbName = 'shop.sqlite'): AskRun => ({
  id,
  dbId: 'db1',
  dbName,
  question: `q ${id}`,
  hints: '',
  provider: 'openai',
  model: 'm',
  status: 'done',
  events: [
    {
      type: 'final',
      sql: 'SELECT 1',
      columns: ['1'],
      rows: [[1]],
      totalRows: 1,
      truncated: false,
      explanation: 'one',
      verdict: 'match',
      step: 3,
      at: 1,
    },
  ],
  streaming: 'partial',
  startedAt: 1,
  endedAt: 2,
});

describe('run history', () => {
  it('keeps runs per database name, newest first, with their events', async () => {
    const h = createRunHistory(createStore('runs-test-1', 'runs'));
    expect(await h.save(run('a'))).toBeNull();
    await h.save(run('b'));
    await h.save(run('c', 'other.sqlite'));
    const runs = await h.list('shop.sqlite');
    expect(runs.map((r) => r.id)).toEqual(['b', 'a']);
    expect(runs[0].events[0]).toMatchObject({ type: 'final', sql: 'SELECT 1' });
    expect(runs[0].streaming).toBe('');
  });

  it('replaces a run saved again and keeps at most 30', async () => {
    const h = createRunHistory(createStore('runs-test-2', 'runs'));
    for (let i = 0; i < 35; i++) await h.save(run(`r${i}`));
    await h.save(run('r34'));
    const runs = await h.list('shop.sqlite');
    expect(runs).toHaveLength(30);
    expect(runs.filter((r) => r.id === 'r34')).toHaveLength(1);
  });
});
