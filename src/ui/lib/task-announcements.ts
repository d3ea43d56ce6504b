// What a screen reader hears when an editor task, a plan step's check or an evaluation ends (issue
// 25): one sentence each, in words. Pure, so the wording is tested without a page.

import type { SqlTask } from '../store/task-store';

const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

export function taskAnnouncement(task: SqlTask): string | null {
  const name = { explain: 'Explain', fix: 'Fix', optimize: 'Optimize' }[task.kind];
  if (task.status === 'running') return null;
  if (task.status === 'failed') return `${name} stopped: ${task.error ?? 'it failed'}.`;
  if (task.kind === 'explain') return 'The explanation is ready, below the editor.';
  if (task.kind === 'fix' && task.report) {
    const r = task.report;
    if (r.status === 'fixed')
      return `Fixed in round ${r.attempts.length}; the fixed SQL and its rows are below the editor.`;
    if (r.status === 'nothing_to_fix') return 'Fix: nothing to fix, the SQL runs.';
    return `Fix: not fixed after ${r.attempts.length} round${r.attempts.length === 1 ? '' : 's'}; what it tried is below the editor.`;
  }
  if (task.kind === 'optimize' && task.report) {
    const r = task.report;
    return r.status === 'accepted' ? `Optimize: a faster rewrite, ${speedText(r.speedup)}.` : `Optimize: ${r.reason}`;
  }
  return null;
}

/** "1.6× faster", for people; the C-VES term stays in the CLI and the evaluation report. */
export function speedText(speedup: number | null): string {
  if (speedup === null) return 'not timed';
  if (speedup >= 1) return `${speedup >= 10 ? Math.round(speedup) : speedup.toFixed(1)}× faster`;
  return `${(1 / speedup).toFixed(1)}× slower`;
}

export function stepCheckAnnouncement(
  step: number,
  outcome: { status: 'running' } | { status: 'done'; rows: unknown[] } | { status: 'failed'; message: string },
): string | null {
  if (outcome.status === 'running') return null;
  return outcome.status === 'done'
    ? `Step ${step} checked: ${rows(outcome.rows.length)} shown under it.`
    : `Step ${step} check found no rows: ${outcome.message}`;
}

export function evaluationAnnouncement(e: {
  status: string;
  rows: Array<{ record: { ex: 0 | 1 | null } }>;
  total: number;
  error: string | null;
}): string {
  const scored = e.rows.filter((r) => r.record.ex !== null);
  const right = scored.filter((r) => r.record.ex === 1).length;
  const tally = `${right} of ${scored.length} answered right`;
  if (e.status === 'failed') return `The evaluation stopped: ${e.error ?? 'it failed'}. ${tally}.`;
  if (e.status === 'stopped')
    return `The evaluation was stopped after ${e.rows.length} of ${e.total} questions: ${tally}.`;
  return `The evaluation is done: ${tally}.`;
}
