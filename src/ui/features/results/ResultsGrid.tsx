import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { resultToTsv } from '../../../core/export/csv';
import { blobToHex } from '../../../core/export/values';
import { sqlWithView } from '../../../core/results/pushed-sql';
import type { QueryResult, SqlValue } from '../../../core/types';
import { formatBytes, formatCount, hexPreview, shown, shownLines } from '../../lib/format';
import { numberText } from '../../lib/number-format';
import { followPointer } from '../../lib/pointer-drag';
import { useApp } from '../../store/app-store';
import { GridToolbar } from './GridToolbar';
import { useGridView } from './use-grid-view';

const ROW_HEIGHT = 28;
/** Characters of a text cell the grid renders; the rest is one click away (ValueDialog). */
export const DISPLAY_CHARS = 1_000;

/** A cell whose whole value the person asked for. */
export interface OpenedCell {
  index: number;
  column: number;
  columnName: string;
  kind: 'text' | 'blob';
  /** Full length: characters or bytes. */
  length: number;
}

/**
 * Virtualised: only the visible rows are in the DOM, so 100k rows scroll smoothly. A cell never
 * renders a long value whole: text shows its first DISPLAY_CHARS characters and a button that
 * opens the whole value (copy or save). Headers sort (ascending, descending, none), a box under
 * each filters, the toolbar filters every column; the row numbers stay those of the result.
 */
export function ResultsGrid({
  result,
  onOpen,
  sql,
  onRunSql,
  onCopy,
}: {
  result: QueryResult;
  onOpen: (cell: OpenedCell) => void;
  /** The statement behind the rows: a capped result's view can run again in SQLite. */
  sql?: string;
  onRunSql?: (sql: string) => void;
  /** Puts text on the clipboard (and says so). */
  onCopy: (text: string, what: string) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const view = useGridView(result);
  const rawNumbers = useApp((s) => s.settings.numberFormat === 'raw');
  const updateSettings = useApp((s) => s.updateSettings);
  const protectFormulas = useApp((s) => s.settings.protectCsvFormulas);
  const [active, setActive] = useState<{ row: number; column: number } | null>(null);
  const virtual = useVirtualizer({
    count: view.indices.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const fitted = useMemo(() => columnWidths(result), [result]);
  const [widths, setWidths] = useState<Record<number, number>>({});
  const template = `56px ${fitted.map((w, i) => `${widths[i] ?? w}px`).join(' ')}`;
  const cutLength = useMemo(() => new Map((result.cut ?? []).map((c) => [`${c.row}:${c.column}`, c.length])), [result]);

  const copyRows = () => {
    const chosen = view.selected.size ? view.indices.filter((i) => view.selected.has(i)) : view.indices;
    const rows = chosen.slice(0, COPY_MAX_ROWS).map((i) => result.rows[i]);
    onCopy(
      resultToTsv({ columns: result.columns, rows }, { protectFormulas }),
      `${formatCount(rows.length)} row${rows.length === 1 ? '' : 's'}${chosen.length > rows.length ? ` (the first ${formatCount(COPY_MAX_ROWS)})` : ''}`,
    );
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    // Ctrl/Cmd+C copies the picked rows, else the active cell; text the person selected copies as usual.
    if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'c' || window.getSelection()?.toString()) return;
    if (e.target instanceof HTMLInputElement) return;
    e.preventDefault();
    if (view.selected.size || !active) copyRows();
    else onCopy(cellText(result.rows[active.row][active.column]), 'the cell');
  };
  const pushed = result.truncated && !!sql && onRunSql ? sqlWithView(sql, result.columns, view) : undefined;

  return (
    <>
      <GridToolbar
        result={result}
        view={view}
        rawNumbers={rawNumbers}
        setRawNumbers={(raw) => updateSettings({ numberFormat: raw ? 'raw' : 'locale' })}
        onCopy={copyRows}
        onRunAll={typeof pushed === 'string' ? () => onRunSql!(pushed) : pushed}
      />
      <div
        className="grid-scroller"
        ref={scroller}
        // Scrollable by keyboard too (arrow keys, Page Up/Down once focused).
        tabIndex={0}
        role="table"
        aria-label="Query results"
        aria-rowcount={view.indices.length + 2}
        onKeyDown={onKeyDown}
      >
        <div className="grid-head-rows">
          <div className="grid-header" style={{ gridTemplateColumns: template }} role="row">
            <div className="grid-cell rownum" role="columnheader">
              #
            </div>
            {result.columns.map((c, i) => (
              <HeaderCell
                key={i}
                name={c}
                types={result.columnTypes[i]?.join('/') || 'null'}
                sort={view.sort?.column === i ? view.sort.direction : undefined}
                onSort={() => view.sortBy(i)}
                onResize={(w) => setWidths((x) => ({ ...x, [i]: w }))}
                width={widths[i] ?? fitted[i]}
              />
            ))}
          </div>
          <div className="grid-filters" style={{ gridTemplateColumns: template }} role="row">
            <div className="grid-cell rownum" role="cell" />
            {result.columns.map((c, i) => (
              <div key={i} className="grid-cell" role="cell">
                <input
                  type="search"
                  aria-label={`Filter ${shown(c)}`}
                  placeholder={numeric(result, i) ? '>5, 1..9' : 'filter'}
                  title="Text the column contains, or for numbers >5, <=10, =3, 5..10"
                  value={view.filterText[i] ?? ''}
                  onChange={(e) => view.setFilterText(i, e.target.value)}
                />
              </div>
            ))}
          </div>
        </div>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const index = view.indices[item.index];
            const row = result.rows[index];
            const picked = view.selected.has(index);
            return (
              <div
                key={item.key}
                className={`grid-row${picked ? ' picked' : ''}`}
                role="row"
                aria-selected={picked}
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                <div className="grid-cell rownum" role="cell">
                  <button
                    type="button"
                    className="rownum-pick"
                    tabIndex={-1}
                    title="Pick this row (Shift: a range, Ctrl: add); Ctrl+C copies the picked rows"
                    onClick={(e) => view.select(index, { range: e.shiftKey, add: e.ctrlKey || e.metaKey })}
                  >
                    {result.offset + index + 1}
                  </button>
                </div>
                {row.map((v, i) => (
                  <Cell
                    key={i}
                    value={v}
                    column={result.columns[i]}
                    rawNumbers={rawNumbers}
                    active={active?.row === index && active.column === i}
                    onActivate={() => setActive({ row: index, column: i })}
                    fullLength={cutLength.get(`${index}:${i}`)}
                    onOpen={(kind, length) => onOpen({ index, column: i, columnName: result.columns[i], kind, length })}
                  />
                ))}
              </div>
            );
          })}
        </div>
        {view.indices.length === 0 && result.rows.length > 0 && (
          <p className="muted pad" data-testid="grid-none">
            No row held matches the filters.
          </p>
        )}
      </div>
    </>
  );
}

/** Rows a copy puts on the clipboard at most (clipboards slow down long before this). */
const COPY_MAX_ROWS = 100_000;

const cellText = (v: SqlValue): string => (v === null ? '' : v instanceof Uint8Array ? blobToHex(v) : String(v));

/** Whether a column holds numbers (the filter box suggests ranges then). */
const numeric = (result: QueryResult, i: number) =>
  (result.columnTypes[i] ?? []).some((t) => t === 'integer' || t === 'real');

function HeaderCell({
  name,
  types,
  sort,
  onSort,
  onResize,
  width,
}: {
  name: string;
  types: string;
  sort?: 'asc' | 'desc';
  onSort: () => void;
  onResize: (width: number) => void;
  width: number;
}) {
  // Dragging the right edge sets the width; the pointer is captured so the drag survives leaving it.
  const startResize = (e: React.PointerEvent<HTMLSpanElement>) => {
    e.preventDefault();
    const startX = e.clientX;
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    followPointer(target, (m) => onResize(Math.max(48, Math.round(width + m.clientX - startX))));
  };
  return (
    <div
      className="grid-cell col-head"
      role="columnheader"
      aria-sort={sort === 'asc' ? 'ascending' : sort === 'desc' ? 'descending' : 'none'}
      title={shown(name)}
    >
      <button type="button" className="col-sort" onClick={onSort} aria-label={`Sort by ${shown(name)}`}>
        <span className="col-name">{shown(name)}</span>
        <span className="sort-mark" aria-hidden="true">
          {sort === 'asc' ? '▲' : sort === 'desc' ? '▼' : ''}
        </span>
      </button>
      <span className="col-types">{types}</span>
      <span
        className="col-resize"
        aria-hidden="true"
        onPointerDown={startResize}
        onDoubleClick={() => onResize(Math.max(width * 2, 360))}
      />
    </div>
  );
}

/**
 * Fixed pixel widths, from the header and the first rows: every row is its own CSS grid, so
 * content-sized tracks would not line up from row to row.
 */
function columnWidths(result: QueryResult): number[] {
  const sample = result.rows.slice(0, 100);
  const widths = result.columns.map((name, i) => {
    // The header's name is bold and has the sort mark beside it.
    let chars = Math.max(name.length * 1.15 + 2, (result.columnTypes[i]?.join('/') ?? '').length * 0.8);
    for (const row of sample) {
      const v = row[i];
      const len = v === null ? 4 : v instanceof Uint8Array ? 30 : Math.min(String(v).length, DISPLAY_CHARS);
      if (len > chars) chars = len;
    }
    return Math.round(Math.min(360, Math.max(64, chars * 7.6 + 20)));
  });
  return widths;
}

/** Cell text is always rendered as text by React; nothing from the database becomes HTML. */
function Cell({
  value,
  column,
  rawNumbers,
  active,
  onActivate,
  fullLength,
  onOpen,
}: {
  value: SqlValue;
  column: string;
  rawNumbers: boolean;
  /** The cell Ctrl+C copies (clicked last). */
  active: boolean;
  onActivate: () => void;
  /** Set when the result carries only the start of the value. */
  fullLength?: number;
  onOpen: (kind: 'text' | 'blob', length: number) => void;
}) {
  const cell = (className: string, children: ReactNode, title?: string, extra?: object) => (
    <div
      className={`grid-cell ${className}${active ? ' active' : ''}`}
      role="cell"
      title={title}
      onClick={onActivate}
      {...extra}
    >
      {children}
    </div>
  );
  if (value === null) return cell('null', 'NULL');
  if (value instanceof Uint8Array) {
    const size = fullLength ?? value.length;
    return cell(
      'blob',
      <>
        <button type="button" className="cell-open" onClick={() => onOpen('blob', size)} aria-label="Whole value">
          ⋯
        </button>
        BLOB {formatBytes(size)} · {hexPreview(value)}
      </>,
      `BLOB, ${formatCount(size)} bytes`,
    );
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    const text = numberText(value, column, rawNumbers);
    return cell('num', text, text === String(value) ? undefined : String(value));
  }
  const length = fullLength ?? value.length;
  // The whole text is a hover away when the column is too narrow for it (or drag the header's edge).
  if (length <= DISPLAY_CHARS) return cell('', shownLines(value), value.length > 12 ? shownLines(value) : undefined);
  return cell(
    'long',
    <>
      <button
        type="button"
        className="cell-open"
        onClick={() => onOpen('text', length)}
        aria-label={`Whole value, ${formatCount(length)} characters`}
      >
        {formatCount(length)} chars
      </button>
      {shownLines(value.slice(0, DISPLAY_CHARS))}…
    </>,
    `${shownLines(value.slice(0, 2000))}…`,
    { 'data-length': length },
  );
}
