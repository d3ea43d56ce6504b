import { ask } from '../../actions/ask';
import { linkForQuestion, planFromLink } from '../../actions/link';
import { shown } from '../../lib/format';
import { useLink } from '../../store/link-store';

/**
 * Link: the tables and columns the question likely needs (structure linker + preliminary SQL),
 * as chips the person can take off before starting a plan from them; the explorer highlights them.
 */
export function LinkChips(props: { dbId: string; question: string; hints: string; disabled: boolean }) {
  const { dbId, question } = props;
  const state = useLink((s) => s.links[dbId]);
  const remove = useLink((s) => s.remove);
  const result = state?.question === question.trim() ? state.result : null;
  return (
    <div className="link-chips" data-testid="link">
      <button
        type="button"
        className="secondary small"
        disabled={props.disabled || !question.trim() || state?.status === 'running'}
        aria-describedby={`link-note-${dbId}`}
        onClick={() => void linkForQuestion(dbId, question.trim())}
      >
        {state?.status === 'running' ? 'Finding the tables…' : 'Which tables does it need?'}
      </button>
      <span className="muted small" id={`link-note-${dbId}`}>
        {' '}
        the tables and columns this question likely needs, from the schema and one draft query by the model
      </span>
      {result && (
        <>
          {result.note && <span className="muted small"> {result.note}</span>}
          <ul className="plain chips" aria-label="Linked tables and columns">
            {result.tables.map((t) => (
              <li key={t.table} className="chip-group" data-linked-table={t.table}>
                <span className="chip chip-table" title={`from ${t.from.join(' and ')}`}>
                  {shown(t.table)}
                  <button type="button" aria-label={`Remove ${t.table}`} onClick={() => remove(dbId, t.table)}>
                    ×
                  </button>
                </span>
                {t.columns.map((c) => (
                  <span key={c.column} className="chip" title={`from ${c.from.join(' and ')}`}>
                    {shown(c.column)}
                    <button
                      type="button"
                      aria-label={`Remove ${t.table}.${c.column}`}
                      onClick={() => remove(dbId, t.table, c.column)}
                    >
                      ×
                    </button>
                  </span>
                ))}
              </li>
            ))}
          </ul>
          {result.tables.length === 0 && <span className="muted small">No table or column is linked.</span>}
          {result.preSql && (
            <details className="small">
              <summary>Preliminary SQL (not run)</summary>
              <pre>{shown(result.preSql)}</pre>
            </details>
          )}
          {result.tables.length > 0 && (
            <button
              type="button"
              className="small"
              disabled={props.disabled}
              onClick={() =>
                void ask(dbId, question.trim(), props.hints.trim(), {
                  confirmedPlan: planFromLink(question.trim(), result),
                })
              }
            >
              Ask with these as the plan
            </button>
          )}
        </>
      )}
    </div>
  );
}
