// Progress crosses the worker boundary as messages and each one re-renders the page: building the
// indexes of 10,000 tables sent tens of thousands and kept the main thread busy for seconds.
// A stage's first and last report always pass; in between, at most one per interval.

import type { ToolboxProgress } from '../core/tools/toolbox';

export function throttleProgress(
  report: (p: ToolboxProgress) => void,
  intervalMs = 100,
  now: () => number = () => Date.now(),
): (p: ToolboxProgress) => void {
  let lastStage: string | null = null;
  let lastAt = -Infinity;
  return (p) => {
    const t = now();
    const last = p.total > 0 && p.done === p.total;
    if (p.stage !== lastStage || last || t - lastAt >= intervalMs) {
      lastStage = p.stage;
      lastAt = t;
      report(p);
    }
  };
}
