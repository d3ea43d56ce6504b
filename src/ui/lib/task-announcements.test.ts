// What a screen reader hears when work ends out of sight: each outcome in words.
import { describe, expect, it } from 'vitest';
import type { SqlTask } from '../store/task-store';
import { evaluationAnnouncement, speedText, stepCheckAnnouncement, taskAnnouncement } from './task-announcements';

const base = { id: 1, sql: 'SELECT 1' };

describe('taskAnnouncement', () => {
  it('says each ending of Explain, Fix and Optimize; nothing while running', () => {
    expect(taskAnnouncement({ ...base, kind: 'explain', status: 'running' })).toBeNull();
    expect(taskAnnouncement({ ...base, kind: 'explain', status: 'done' })).toBe(
      'The explanation is ready, below the editor.',
    );
    expect(taskAnnouncement({ ...base, kind: 'fix', status: 'failed', progress: [], error: 'no server' })).toBe(
      'Fix stopped: no server.',
    );
    const fixed = { status: 'fixed', attempts: [{}, {}] } as never;
    expect(taskAnnouncement({ ...base, kind: 'fix', status: 'done', progress: [], report: fixed })).toBe(
      'Fixed in round 2; the fixed SQL and its rows are below the editor.',
    );
    const accepted = { status: 'accepted', speedup: 1.62, reason: '' } as never;
    expect(taskAnnouncement({ ...base, kind: 'optimize', status: 'done', report: accepted } as SqlTask)).toBe(
      'Optimize: a faster rewrite, 1.6× faster.',
    );
  });

  it('speaks of speed as people do', () => {
    expect([speedText(1.62), speedText(12.4), speedText(0.5), speedText(null)]).toEqual([
      '1.6× faster',
      '12× faster',
      '2.0× slower',
      'not timed',
    ]);
  });

  it('says a step check and an evaluation', () => {
    expect(stepCheckAnnouncement(2, { status: 'done', rows: [[1], [2]] })).toBe(
      'Step 2 checked: 2 rows shown under it.',
    );
    expect(stepCheckAnnouncement(1, { status: 'running' })).toBeNull();
    const rows = [{ record: { ex: 1 as const } }, { record: { ex: 0 as const } }, { record: { ex: null } }];
    expect(evaluationAnnouncement({ status: 'done', rows, total: 3, error: null })).toBe(
      'The evaluation is done: 1 of 2 answered right.',
    );
    expect(evaluationAnnouncement({ status: 'stopped', rows, total: 10, error: null })).toBe(
      'The evaluation was stopped after 3 of 10 questions: 1 of 2 answered right.',
    );
  });
});
