// What tells two runs of one question apart in the History list: model, plan, rows, verdict.

import type { AgentEvent } from '../../../core/agent/events';
import type { AskRun } from '../../store/ask-store';

export type FactKey = 'model' | 'plan' | 'rows' | 'verdict';
export type RunFacts = Record<FactKey, string>;

const VERDICT: Record<string, string> = { match: '✓ matches', mismatch: '✗ may not match', unsure: '? unsure' };

export function runFacts(run: AskRun): RunFacts {
  const final = run.events.find((e): e is Extract<AgentEvent, { type: 'final' }> => e.type === 'final');
  const edited = !!run.confirmedPlan || run.events.some((e) => e.type === 'plan' && (e.edited || e.confirmed));
  const rows = !final
    ? 'no answer'
    : final.totalRows != null
      ? `${final.totalRows} row${final.totalRows === 1 ? '' : 's'}`
      : `${final.rows.length}+ rows`;
  return {
    model: run.provider === 'scripted' ? 'scripted demo' : `${run.provider} · ${run.model}`,
    plan: edited ? 'plan edited' : 'model’s plan',
    rows,
    verdict: final ? (VERDICT[final.verdict] ?? final.verdict) : run.status === 'failed' ? 'failed' : '',
  };
}

/** Per run id, the facts that differ from another run of the same question (empty when asked once). */
export function differingFacts(runs: AskRun[]): Map<string, Set<FactKey>> {
  const byQuestion = new Map<string, AskRun[]>();
  for (const r of runs) {
    const key = r.question.trim().toLowerCase();
    byQuestion.set(key, [...(byQuestion.get(key) ?? []), r]);
  }
  const out = new Map<string, Set<FactKey>>();
  for (const group of byQuestion.values()) {
    const facts = group.map(runFacts);
    const keys = (Object.keys(facts[0]) as FactKey[]).filter((k) => new Set(facts.map((f) => f[k])).size > 1);
    group.forEach((r) => out.set(r.id, new Set(keys)));
  }
  return out;
}
