import { useQuery } from '@tanstack/react-query';
import { historyQuery } from '../../queries';
import { useServices } from '../../services/context';
import { useAsk } from '../../store/ask-store';
import { shown } from '../../lib/format';

/** Past questions on this database file; a click shows that run again with all its steps. */
export function RunHistoryList({ dbId, dbName }: { dbId: string; dbName: string }) {
  const history = useQuery(historyQuery(useServices(), dbName));
  const setRun = useAsk((s) => s.setRun);
  const current = useAsk((s) => s.runs[dbId]?.id);
  if (!history.data?.length) return null;
  return (
    <details className="history small" data-testid="history">
      <summary>History ({history.data.length})</summary>
      <ul className="plain">
        {history.data.map((r) => (
          <li key={r.id}>
            <button
              type="button"
              className="link"
              aria-current={r.id === current}
              onClick={() => setRun(dbId, { ...r, dbId })}
            >
              {shown(r.question)}
            </button>
            <span className="muted">
              {' '}
              · {new Date(r.startedAt).toLocaleString()} · {r.status === 'done' ? 'answered' : 'no answer'}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}
