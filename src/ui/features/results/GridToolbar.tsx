import type { QueryResult } from '../../../core/types';
import { formatCount } from '../../lib/format';
import type { GridView } from './use-grid-view';

/**
 * Above the rows: a filter over every column, how many rows show, Clear, the number format, Copy,
 * and, when the result holds only its first rows, the way to sort and filter all of them in SQLite.
 */
export function GridToolbar({
  result,
  view,
  rawNumbers,
  setRawNumbers,
  onCopy,
  onRunAll,
}: {
  result: QueryResult;
  view: GridView;
  rawNumbers: boolean;
  setRawNumbers: (raw: boolean) => void;
  onCopy: () => void;
  /** Set when the result is capped: runs the statement again with the view in SQL (null: it cannot be). */
  onRunAll?: (() => void) | null;
}) {
  const total = result.rows.length;
  const shownRows = view.indices.length;
  const picked = view.selected.size;
  return (
    <div className="grid-toolbar small" data-testid="grid-toolbar">
      <input
        type="search"
        className="quick-filter"
        aria-label="Filter rows"
        placeholder="Filter rows…"
        value={view.quick}
        onChange={(e) => view.setQuick(e.target.value)}
      />
      <span data-testid="grid-count" aria-live="polite">
        {view.plain
          ? `${formatCount(total)} row${total === 1 ? '' : 's'}`
          : `${formatCount(shownRows)} of ${formatCount(total)} row${total === 1 ? '' : 's'}${view.sorting ? ', sorting…' : view.sort ? ', sorted' : ''}`}
      </span>
      {!view.plain && (
        <button type="button" className="link small" onClick={view.clear}>
          Clear sort and filters
        </button>
      )}
      <label className="check small" title="Show numbers with digit grouping (146,934,000) or as stored (146934000)">
        <input type="checkbox" checked={!rawNumbers} onChange={(e) => setRawNumbers(!e.target.checked)} />
        group digits
      </label>
      <button
        type="button"
        className="small secondary"
        onClick={onCopy}
        title="Copy as tab-separated text, for a spreadsheet (Ctrl+C in the grid too)"
      >
        {picked ? `Copy ${formatCount(picked)} row${picked === 1 ? '' : 's'}` : 'Copy rows'}
      </button>
      {result.truncated && !view.plain && (
        <span className="grid-capped" data-testid="grid-capped">
          Sorted and filtered among the first {formatCount(total)} rows only.{' '}
          {onRunAll ? (
            <button type="button" className="link small" onClick={onRunAll}>
              Do it for every row in SQLite
            </button>
          ) : (
            'A column name repeats, so SQLite cannot be asked for it; rename the columns (AS) to do so.'
          )}
        </span>
      )}
    </div>
  );
}
