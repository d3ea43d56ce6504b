import type { SqlValue } from '../../core/types';
import { shown, valueText } from '../lib/format';
import { numberText } from '../lib/number-format';

/**
 * The first rows of a result as a small text table: column names and cells rendered as text
 * (control and bidi characters shown as marks), each cell cut at `cellChars`. One place for the
 * answer card, step checks, SQL tasks and evaluation misses.
 */
const isNumber = (v: SqlValue): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';

export function MiniRows({
  columns,
  rows,
  cellChars = 60,
  testId,
  numbers,
}: {
  columns: readonly string[];
  rows: readonly (readonly SqlValue[])[];
  cellChars?: number;
  testId?: string;
  /** Numbers with digit grouping ('locale') or as stored ('raw'); unset: as stored, left-aligned. */
  numbers?: 'locale' | 'raw';
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
              <td key={j} className={numbers && isNumber(v) ? 'num' : undefined}>
                {numbers && isNumber(v) ? numberText(v, columns[j], numbers === 'raw') : valueText(v, cellChars)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
