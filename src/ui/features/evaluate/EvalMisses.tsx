import type { MissClass } from '../../../core/eval/miss-class';
import type { EvalRow, ResultPreview } from '../../store/evaluate-store';
import { MiniRows } from '../../components/MiniRows';

const CAUSE: Record<MissClass, string> = {
  selected_column: 'other columns selected',
  filtered_column: 'other filter columns or values',
  reasoning: 'other logic (joins, grouping, aggregation, order)',
  format: 'right values, other shape',
  empty_gold: 'your SQL returns no rows',
  ambiguous: 'ambiguous (ties or how many)',
  tie: 'another of the rows tied at the LIMIT',
  no_answer: 'no answer',
  sql_error: 'the SQL failed',
};

function Side({
  title,
  sql,
  result,
  testId,
}: {
  title: string;
  sql: string | null;
  result: ResultPreview | null;
  testId: string;
}) {
  return (
    <div className="miss-side" data-testid={testId}>
      <h3>{title}</h3>
      <pre className="final-sql">{sql ?? '(no SQL)'}</pre>
      {result && (
        <>
          <MiniRows columns={result.columns} rows={result.rows} />
          <p className="muted small">
            {result.total} row{result.total === 1 ? '' : 's'}
            {result.total > result.rows.length ? ` (first ${result.rows.length} shown)` : ''}
          </p>
        </>
      )}
    </div>
  );
}

/** Every question that did not score: the reference and the model's answer side by side. */
export function EvalMisses({ rows }: { rows: EvalRow[] }) {
  const misses = rows.filter((r) => r.record.status !== 'correct');
  const correct = rows.length - misses.length;
  return (
    <section aria-label="Misses">
      <h3>
        {misses.length === 0 ? 'No misses' : `Misses (${misses.length})`}
        <span className="muted small"> · {correct} correct</span>
      </h3>
      {misses.map(({ record: r, gold, pred }) => (
        <article key={r.id} className="card miss" data-testid="eval-miss" data-status={r.status}>
          <p>
            <strong>{r.question}</strong>{' '}
            <span className="chip">{r.status === 'wrong' && r.miss ? CAUSE[r.miss] : r.status}</span>
          </p>
          {r.reason && <p className="muted small">{r.reason}</p>}
          <div className="miss-pair">
            <Side title="Your SQL" sql={r.goldSql} result={gold} testId="miss-reference" />
            <Side title="The model's SQL" sql={r.finalSql} result={pred} testId="miss-answer" />
          </div>
        </article>
      ))}
    </section>
  );
}
