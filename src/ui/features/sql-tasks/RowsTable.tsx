import type { SqlOutcome } from '../../../core/agent/sql-outcome';
import { formatCount, shown } from '../../lib/format';
import { MiniRows } from '../../components/MiniRows';

/** The first rows of a run, or its error, as text. */
export function RowsTable({ outcome, max = 5 }: { outcome: SqlOutcome | null; max?: number }) {
  if (!outcome) return null;
  if (!outcome.ok) return <p className="error small">{shown(outcome.summary)}</p>;
  const total = outcome.totalRows;
  return (
    <>
      <MiniRows columns={outcome.columns} rows={outcome.rows.slice(0, max)} testId="task-rows" />
      <p className="muted small">
        {total === null
          ? `more than ${outcome.rows.length} rows`
          : `${formatCount(total)} row${total === 1 ? '' : 's'}`}
        {(total === null || total > max) && ` (first ${Math.min(max, outcome.rows.length)} shown)`}
      </p>
    </>
  );
}
