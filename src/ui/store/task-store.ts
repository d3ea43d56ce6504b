// The editor's SQL tasks (Explain, Fix, Optimize):
// the last one per database, its SQL and its report. Reports hold only what the page shows.

import { create } from 'zustand';
import type { SqlExplanation } from '../../core/tasks/explain-sql';
import type { FixAttempt, FixReport } from '../../core/tasks/fix-sql';
import type { OptimizeReport } from '../../core/tasks/optimize-sql';

interface TaskBase {
  /** Tells a task from a later one on the same database (a late result must not replace it). */
  id: number;
  status: 'running' | 'done' | 'failed';
  sql: string;
  error?: string;
}

export type SqlTask =
  | (TaskBase & { kind: 'explain'; report?: SqlExplanation })
  | (TaskBase & {
      kind: 'fix';
      /** Runs seen so far (the original first), while the rounds go on. */
      progress: FixAttempt[];
      report?: FixReport;
    })
  | (TaskBase & { kind: 'optimize'; report?: OptimizeReport });

interface TaskState {
  tasks: Record<string, SqlTask | undefined>;
  setTask(dbId: string, task: SqlTask | undefined): void;
}

export const useTasks = create<TaskState>()((set) => ({
  tasks: {},
  setTask: (dbId, task) => set((s) => ({ tasks: { ...s.tasks, [dbId]: task } })),
}));
