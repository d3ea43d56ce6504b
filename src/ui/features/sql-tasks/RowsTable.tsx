import type { SqlOutcome } from '../../../core/agent/sql-outcome';
import { formatCount, shown, valueText } from '../../lib/format';

/** The first rows of a run, or its error, as text. */
export function RowsTable({ outcome, max = 5 }: { outcome: SqlOutcome | null; max?: number }) {
  if (!outcome) return null;
  if (!outcome.ok) return <p className="error small">{shown(outcome.summary)}</p>;
  const total = outcome.totalRows;
  return (
    <>
      <table className="mini" data-testid="task-rows">
        <thead>
          <tr>
            {outcome.columns.map((c, i) => (
              <th key={i}>{shown(c)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {outcome.rows.slice(0, max).map((r, i) => (
            <tr key={i}>
              {r.map((v, j) => (
                <td key={j}>{valueText(v, 60)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        {total === null
          ? `more than ${outcome.rows.length} rows`
          : `${formatCount(total)} row${total === 1 ? '' : 's'}`}
        {(total === null || total > max) && ` (first ${Math.min(max, outcome.rows.length)} shown)`}
      </p>
    </>
  );
}
