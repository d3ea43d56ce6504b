import { describe, expect, it } from 'vitest';
import { NO_COST, type QuestionRecord } from '../../core/eval/eval-record';
import { EvalProgress } from './eval-progress';

const done = (ex: 0 | 1 | null) => ({ ex, cost: NO_COST }) as QuestionRecord;

describe('eval progress', () => {
  it('shows the share done, the accuracy so far and an estimate of the time left', () => {
    let now = 0;
    let text = '';
    const p = new EvalProgress(10, { write: (t) => (text += t), live: false, now: () => now });
    p.start('start');
    now = 4000;
    p.tick(done(1));
    now = 8000;
    p.tick(done(0));
    expect(p.line()).toBe('[#####...................] 2/10 20% · EX 50.0% · 4.0 s/question · about 32 s left');
    // Printed at each tenth of the way, not for every question of a long run.
    expect(text.split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('redraws one line on a terminal', () => {
    let text = '';
    const p = new EvalProgress(2, { write: (t) => (text += t), live: true, now: () => 0 });
    p.tick(done(null));
    expect(text).toContain('\r\x1b[2K[############............] 1/2 50%');
  });
});
