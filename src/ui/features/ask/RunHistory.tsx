import { useQuery } from '@tanstack/react-query';
import { historyQuery } from '../../queries';
import { useServices } from '../../services/context';
import { useAsk } from '../../store/ask-store';
import { shown } from '../../lib/format';
import { differingFacts, runFacts, type FactKey } from './history-facts';

const FACT_ORDER: FactKey[] = ['model', 'plan', 'rows', 'verdict'];

/**
 * Past questions on this database file; a click shows that run again with all its steps. Runs of
 * the same question show model, plan, rows and verdict, with what differs between them marked.
 */
export function RunHistoryList({ dbId, dbName }: { dbId: string; dbName: string }) {
  const history = useQuery(historyQuery(useServices(), dbName));
  const setRun = useAsk((s) => s.setRun);
  const current = useAsk((s) => s.runs[dbId]?.id);
  if (!history.data?.length) return null;
  const differs = differingFacts(history.data);
  return (
    <details className="history small" data-testid="history">
      <summary>History ({history.data.length})</summary>
      <ul className="plain">
        {history.data.map((r) => {
          const facts = runFacts(r);
          const changed = differs.get(r.id) ?? new Set<FactKey>();
          return (
            <li key={r.id} data-testid="history-entry">
              <button
                type="button"
                className="link"
                aria-current={r.id === current}
                onClick={() => setRun(dbId, { ...r, dbId })}
              >
                {shown(r.question)}
              </button>
              <span className="muted"> · {new Date(r.startedAt).toLocaleString()}</span>
              <span className="history-facts">
                {FACT_ORDER.filter((k) => facts[k]).map((k) =>
                  changed.has(k) ? (
                    <mark
                      key={k}
                      className="fact-differs"
                      data-fact={k}
                      title="Differs from another run of this question"
                    >
                      {shown(facts[k])}
                    </mark>
                  ) : (
                    <span key={k} className="muted" data-fact={k}>
                      {shown(facts[k])}
                    </span>
                  ),
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
