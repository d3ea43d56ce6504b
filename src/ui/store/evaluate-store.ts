// The Evaluate view's state per database: the question file being run, each question's record as
// it finishes (with the first rows of both results, to show a miss side by side), and how to stop.

import { create } from 'zustand';
import type { QuestionRecord } from '../../core/eval/eval-record';
import type { EvalMode } from '../../core/eval/run-for-eval';
import type { Dataset } from '../../core/eval/score-answer';
import type { SqlValue } from '../../core/types';

export interface ResultPreview {
  columns: string[];
  rows: SqlValue[][];
  /** Rows the query returned in all. */
  total: number;
}

export interface EvalRow {
  record: QuestionRecord;
  gold: ResultPreview | null;
  pred: ResultPreview | null;
}

export interface Evaluation {
  fileName: string;
  status: 'running' | 'done' | 'stopped' | 'failed';
  mode: EvalMode;
  /** Whose comparison rule scores the answers. */
  rule: Dataset;
  /** "provider (model)". */
  model: string;
  total: number;
  rows: EvalRow[];
  /** The question being answered now. */
  current: string | null;
  /** The question file is being parsed (in a worker) before the first question. */
  reading?: boolean;
  error: string | null;
  stop: () => void;
  /** Set on an evaluation kept from an earlier visit (lib/saved-evaluations.ts). */
  savedAt?: string;
}

interface EvaluateState {
  evaluations: Record<string, Evaluation | undefined>;
  set(dbId: string, evaluation: Evaluation | undefined): void;
  patch(dbId: string, patch: Partial<Evaluation>): void;
  push(dbId: string, row: EvalRow): void;
}

export const useEvaluate = create<EvaluateState>()((set) => ({
  evaluations: {},
  set: (dbId, evaluation) => set((s) => ({ evaluations: { ...s.evaluations, [dbId]: evaluation } })),
  patch: (dbId, patch) =>
    set((s) =>
      s.evaluations[dbId] ? { evaluations: { ...s.evaluations, [dbId]: { ...s.evaluations[dbId]!, ...patch } } } : {},
    ),
  push: (dbId, row) =>
    set((s) => {
      const e = s.evaluations[dbId];
      return e ? { evaluations: { ...s.evaluations, [dbId]: { ...e, rows: [...e.rows, row] } } } : {};
    }),
}));
