import type { SqlValue } from '../../core/types';
import { shown, valueText } from '../lib/format';

/**
 * The first rows of a result as a small text table: column names and cells rendered as text
 * (control and bidi characters shown as marks), each cell cut at `cellChars`. One place for the
 * answer card, step checks, SQL tasks and evaluation misses.
 */
export function MiniRows({
  columns,
  rows,
  cellChars = 60,
  testId,
}: {
  columns: readonly string[];
  rows: readonly (readonly SqlValue[])[];
  cellChars?: number;
  testId?: string;
}) {
  return (
    <table className="mini" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i}>{shown(c)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            {r.map((v, j) => (
              <td key={j}>{valueText(v, cellChars)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
