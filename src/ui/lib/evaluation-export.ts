// The page's evaluation as files (issue 25): the same Markdown report `dowser eval` writes (core's
// evalMarkdown) and the records as JSON lines, one per question, as `dowser eval --out` keeps them.

import { evalMarkdown } from '../../core/eval/eval-markdown';
import { summarize } from '../../core/eval/eval-summary';
import type { Evaluation } from '../store/evaluate-store';

const MODE_NAMES = { auto: 'Auto', agent: 'agent', direct: 'Direct' } as const;

export const modeName = (mode: Evaluation['mode']) => MODE_NAMES[mode as keyof typeof MODE_NAMES] ?? mode;

export function evaluationReport(
  e: Pick<Evaluation, 'rows' | 'rule' | 'total' | 'fileName' | 'model' | 'mode' | 'status'>,
  dbName: string,
): string {
  const records = e.rows.map((r) => r.record);
  const { summary, details } = summarize(records, { softF1: e.rule === 'bird', selected: e.total });
  const header = {
    title: `Dowser evaluation: ${e.fileName} on ${dbName}`,
    facts: [
      `questions: ${e.fileName} (${e.rows.length} of ${e.total} answered${e.status === 'stopped' ? ', stopped' : ''})`,
      `model: ${e.model}, ${modeName(e.mode)} mode`,
      `scoring: ${e.rule === 'bird' ? 'BIRD execution accuracy (same set of rows) and soft F1' : 'Spider execution match (same rows and counts; order only with ORDER BY)'}`,
    ],
  };
  return evalMarkdown(header, summary, details);
}

export const evaluationRecords = (e: Pick<Evaluation, 'rows'>): string =>
  e.rows.map((r) => JSON.stringify(r.record)).join('\n') + '\n';
