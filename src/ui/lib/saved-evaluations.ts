// The last evaluation of each database file, kept in this browser (issue 25: results vanished on
// reload): the scores, the records and the first rows of both results, never a key (records are
// redacted as runs are) and never the question file itself. Keyed by the file's name, as notes are.

import { createStore, get, set, type UseStore } from 'idb-keyval';
import type { Evaluation } from '../store/evaluate-store';

export type SavedEvaluation = Omit<Evaluation, 'stop' | 'current'> & { savedAt: string };

export interface SavedEvaluations {
  save(dbName: string, evaluation: Evaluation): Promise<void>;
  load(dbName: string): Promise<SavedEvaluation | null>;
}

export function createSavedEvaluations(
  store: UseStore = createStore('dowser-evaluations', 'by-file'),
): SavedEvaluations {
  return {
    async save(dbName, evaluation) {
      const { stop: _stop, current: _current, ...kept } = evaluation;
      await set(dbName, { ...kept, savedAt: new Date().toISOString() } satisfies SavedEvaluation, store).catch(
        () => undefined, // storage refused (private mode, quota): the results stay on the page
      );
    },
    async load(dbName) {
      const saved = await get<SavedEvaluation>(dbName, store).catch(() => undefined);
      return saved && Array.isArray(saved.rows) ? saved : null;
    },
  };
}
