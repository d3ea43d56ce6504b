import { useEffect, useRef } from 'react';
import { useApp } from '../store/app-store';
import { ResultsPanel } from '../features/results/ResultsPanel';
import { shown } from '../lib/format';

/**
 * A table's "Preview rows" asked for from the Ask view: the rows show there, where the person
 * is, with the way to the SQL tab and a Close. An agent's answer or a query run elsewhere ends it.
 */
export function AskRows({ dbId }: { dbId: string }) {
  const label = useApp((s) =>
    s.rowsInAsk && s.run.dbId === dbId && s.run.origin === 'preview' ? (s.run.label ?? '') : null,
  );
  const setRowsInAsk = useApp((s) => s.setRowsInAsk);
  const setView = useApp((s) => s.setView);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (label !== null) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [label]);
  if (label === null) return null;
  return (
    <section className="ask-rows" ref={ref} aria-label={`Rows of ${label}`} data-testid="ask-rows">
      <div className="ask-rows-bar">
        <b>Rows of {shown(label)}</b>
        <button
          type="button"
          className="small secondary"
          onClick={() => {
            setRowsInAsk(false);
            setView('sql');
          }}
        >
          Open in the SQL tab
        </button>
        <button type="button" className="small secondary" onClick={() => setRowsInAsk(false)}>
          Close
        </button>
      </div>
      <ResultsPanel dbId={dbId} />
    </section>
  );
}
