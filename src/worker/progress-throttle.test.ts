import { describe, expect, it } from 'vitest';
import type { ToolboxProgress } from '../core/tools/toolbox';
import { throttleProgress } from './progress-throttle';

describe('throttleProgress', () => {
  it('passes each stage first and last report and at most one per interval between', () => {
    const seen: ToolboxProgress[] = [];
    let clock = 0;
    const report = throttleProgress(
      (p) => seen.push(p),
      100,
      () => clock,
    );
    for (let done = 1; done <= 10_000; done++) {
      clock += 0.1; // 10,000 reports in one second
      report({ stage: 'statistics', done, total: 10_000 });
    }
    // A stage that reports without a total (0 of 0) is throttled too.
    for (let i = 0; i < 1_000; i++) {
      clock += 0.1;
      report({ stage: 'values', done: 0, total: 0 });
    }
    report({ stage: 'keys', done: 0, total: 1 });
    report({ stage: 'keys', done: 1, total: 1 });
    expect(seen.length).toBeLessThan(20);
    expect(seen[0]).toEqual({ stage: 'statistics', done: 1, total: 10_000 });
    expect(seen.find((p) => p.stage === 'statistics' && p.done === 10_000)).toBeTruthy();
    expect(seen.slice(-2)).toEqual([
      { stage: 'keys', done: 0, total: 1 },
      { stage: 'keys', done: 1, total: 1 },
    ]);
  });
});
