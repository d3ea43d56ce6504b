import type { SqlExplanation } from '../../../core/tasks/explain-sql';
import type { FixAttempt, FixReport } from '../../../core/tasks/fix-sql';
import { OPTIMIZE_MIN_SAVING_MS, type OptimizeReport, type TimedQuery } from '../../../core/tasks/optimize-sql';
import { SqlDiff } from '../../components/SqlDiff';
import { speedText } from '../../lib/task-announcements';
import { shown, shownLines } from '../../lib/format';
import { RowsTable } from './RowsTable';

export function ExplainCard({ report }: { report: SqlExplanation }) {
  const s = report.structure;
  const list = (xs: string[]) => (xs.length ? xs.map(shown).join('; ') : '—');
  return (
    <div data-testid="explain-card">
      {report.explanation ? (
        <p className="explanation" data-testid="task-explanation">
          {shownLines(report.explanation)}
        </p>
      ) : (
        <p className="warn small">{report.note}</p>
      )}
      {report.verdict && <p className={`verdict verdict-${report.verdict} small`}>Verdict: {report.verdict}</p>}
      <dl className="task-facts small" aria-label="What the SQL reads">
        <dt>Tables</dt>
        <dd>{list(s.tables)}</dd>
        <dt>Filters</dt>
        <dd>{list(s.filters)}</dd>
        <dt>Grouped by</dt>
        <dd>{shown(s.groupBy ?? '—')}</dd>
        <dt>Ordered by</dt>
        <dd>{shown(s.orderBy ?? '—')}</dd>
        <dt>Limit</dt>
        <dd>{shown(s.limit ?? '—')}</dd>
      </dl>
      {report.outcome && !report.outcome.ok && (
        <p className="muted small">Explained from its text: it does not run ({shown(report.outcome.summary)}).</p>
      )}
    </div>
  );
}

function Attempt({ label, attempt }: { label: string; attempt: FixAttempt }) {
  return (
    <li className="fix-attempt" data-testid="fix-attempt">
      <span className="small">{label}</span>
      <pre className="small task-sql">{attempt.sql ? shownLines(attempt.sql) : '(no SQL)'}</pre>
      {attempt.problem && <p className="error small">{shown(attempt.problem)}</p>}
    </li>
  );
}

export function FixProgress({ progress }: { progress: FixAttempt[] }) {
  return (
    <p className="muted small">
      {progress.length === 0
        ? 'Running the SQL…'
        : `Asking the model for a fix (round ${progress.length} of at most 2)…`}
    </p>
  );
}

export function FixCard({ report, onUse }: { report: FixReport; onUse: (sql: string) => void }) {
  const headline = {
    fixed: `Fixed in round ${report.attempts.length}: it runs${report.fixed?.outcome?.empty ? '' : ' and returns rows'}.`,
    not_fixed: `Not fixed after ${report.attempts.length} round${report.attempts.length === 1 ? '' : 's'}.`,
    nothing_to_fix: 'Nothing to fix.',
    failed: 'The fix stopped.',
  }[report.status];
  return (
    <div data-testid="fix-card" data-status={report.status}>
      <p className={report.status === 'fixed' ? 'ok' : 'warn'}>
        <b>{headline}</b> {report.status !== 'nothing_to_fix' && <>The problem: {shown(report.problem)}.</>}
      </p>
      {report.fixed ? (
        <>
          <SqlDiff before={report.original.sql} after={report.fixed.sql} caption="SQL changed by the fix" />
          <RowsTable outcome={report.fixed.outcome} />
          {report.problem.startsWith('the person says') && (
            <p className="muted small">It runs; check that it does what your note asks.</p>
          )}
          <button type="button" className="small" onClick={() => onUse(report.fixed!.sql)}>
            Use this SQL
          </button>
        </>
      ) : (
        report.summary && <pre className="small task-summary">{shownLines(report.summary)}</pre>
      )}
      {report.attempts.length > 0 && !report.fixed && (
        <ol className="fix-attempts">
          {report.attempts.map((a, i) => (
            <Attempt key={i} label={`Round ${i + 1}`} attempt={a} />
          ))}
        </ol>
      )}
    </div>
  );
}

const ms = (v: number | null) => (v === null ? '—' : `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`);

function TimingRow({ name, q }: { name: string; q: TimedQuery }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{ms(q.medianMs)}</td>
      <td>{q.timesMs.length || '—'}</td>
      <td>{q.rows ?? '—'}</td>
    </tr>
  );
}

export function OptimizeCard({ report, onUse }: { report: OptimizeReport; onUse: (sql: string) => void }) {
  const r = report;
  return (
    <div data-testid="optimize-card" data-status={r.status}>
      <p className={r.status === 'accepted' ? 'ok' : 'warn'} data-testid="optimize-verdict">
        <b>{r.status === 'accepted' ? 'Accepted.' : r.status === 'rejected' ? 'Rejected.' : 'Not judged.'}</b>{' '}
        {shown(r.reason)}
      </p>
      <p className="muted small">
        Accepted only with identical results (compared{' '}
        {r.comparedInOrder ? 'row by row: the SQL orders' : 'as multisets'}) and a median time at most{' '}
        {100 - Math.round(r.margin * 100)}% of the original&apos;s, at least {OPTIMIZE_MIN_SAVING_MS} ms less.
        {r.speedup !== null && r.rewrite && (
          <>
            {' '}
            The rewrite ran <b data-testid="speedup">{speedText(r.speedup)}</b> than the original.
          </>
        )}
      </p>
      {r.rewrite && (
        <>
          <SqlDiff before={r.original.sql} after={r.rewrite.sql} caption="SQL changed by the rewrite" />
          <table className="mini" aria-label="Timings">
            <thead>
              <tr>
                <th />
                <th>median</th>
                <th>runs</th>
                <th>rows</th>
              </tr>
            </thead>
            <tbody>
              <TimingRow name="original" q={r.original} />
              <TimingRow name="rewrite" q={r.rewrite} />
            </tbody>
          </table>
        </>
      )}
      <div className="plans" data-testid="query-plans">
        <section aria-label="Plan of the original">
          <h5>EXPLAIN QUERY PLAN — original</h5>
          <pre className="small">{shownLines(r.original.plan.join('\n') || '—')}</pre>
        </section>
        <section aria-label="Plan of the rewrite">
          <h5>EXPLAIN QUERY PLAN — rewrite</h5>
          <pre className="small">{shownLines(r.rewrite?.plan.join('\n') || '—')}</pre>
        </section>
      </div>
      {r.status === 'accepted' && r.rewrite && (
        <button type="button" className="small" onClick={() => onUse(r.rewrite!.sql)}>
          Use the rewrite
        </button>
      )}
    </div>
  );
}
