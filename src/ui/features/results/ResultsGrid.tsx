import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { QueryResult, SqlValue } from '../../../core/types';
import { formatBytes, formatCount, hexPreview, shown, shownLines } from '../../lib/format';

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
 * opens the whole value (copy or save).
 */
export function ResultsGrid({ result, onOpen }: { result: QueryResult; onOpen: (cell: OpenedCell) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: result.rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const template = useMemo(() => columnTemplate(result), [result]);
  const cutLength = useMemo(() => new Map((result.cut ?? []).map((c) => [`${c.row}:${c.column}`, c.length])), [result]);

  return (
    <div
      className="grid-scroller"
      ref={scroller}
      // Scrollable by keyboard too (arrow keys, Page Up/Down once focused).
      tabIndex={0}
      role="table"
      aria-label="Query results"
      aria-rowcount={result.rows.length + 1}
    >
      <div className="grid-header" style={{ gridTemplateColumns: template }} role="row">
        <div className="grid-cell rownum" role="columnheader">
          #
        </div>
        {result.columns.map((c, i) => (
          <div key={i} className="grid-cell" role="columnheader" title={shown(c)}>
            <span className="col-name">{shown(c)}</span>
            <span className="col-types">{result.columnTypes[i]?.join('/') || 'null'}</span>
          </div>
        ))}
      </div>
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((item) => {
          const row = result.rows[item.index];
          return (
            <div
              key={item.key}
              className="grid-row"
              role="row"
              style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              <div className="grid-cell rownum" role="cell">
                {result.offset + item.index + 1}
              </div>
              {row.map((v, i) => (
                <Cell
                  key={i}
                  value={v}
                  fullLength={cutLength.get(`${item.index}:${i}`)}
                  onOpen={(kind, length) =>
                    onOpen({ index: item.index, column: i, columnName: result.columns[i], kind, length })
                  }
                />
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/**
 * Fixed pixel widths, from the header and the first rows: every row is its own CSS grid, so
 * content-sized tracks would not line up from row to row.
 */
function columnTemplate(result: QueryResult): string {
  const sample = result.rows.slice(0, 100);
  const widths = result.columns.map((name, i) => {
    let chars = Math.max(name.length, (result.columnTypes[i]?.join('/') ?? '').length * 0.8);
    for (const row of sample) {
      const v = row[i];
      const len = v === null ? 4 : v instanceof Uint8Array ? 30 : Math.min(String(v).length, DISPLAY_CHARS);
      if (len > chars) chars = len;
    }
    return Math.round(Math.min(360, Math.max(64, chars * 7.6 + 20)));
  });
  return `56px ${widths.map((w) => `${w}px`).join(' ')}`;
}

/** Cell text is always rendered as text by React; nothing from the database becomes HTML. */
function Cell({
  value,
  fullLength,
  onOpen,
}: {
  value: SqlValue;
  /** Set when the result carries only the start of the value. */
  fullLength?: number;
  onOpen: (kind: 'text' | 'blob', length: number) => void;
}) {
  if (value === null)
    return (
      <div className="grid-cell null" role="cell">
        NULL
      </div>
    );
  if (value instanceof Uint8Array) {
    const size = fullLength ?? value.length;
    return (
      <div className="grid-cell blob" role="cell" title={`BLOB, ${formatCount(size)} bytes`}>
        <button type="button" className="cell-open" onClick={() => onOpen('blob', size)} aria-label="Whole value">
          ⋯
        </button>
        BLOB {formatBytes(size)} · {hexPreview(value)}
      </div>
    );
  }
  if (typeof value === 'number' || typeof value === 'bigint')
    return (
      <div className="grid-cell num" role="cell">
        {String(value)}
      </div>
    );
  const length = fullLength ?? value.length;
  if (length <= DISPLAY_CHARS)
    return (
      <div className="grid-cell" role="cell" title={value.length > 40 ? shownLines(value) : undefined}>
        {shownLines(value)}
      </div>
    );
  return (
    <div className="grid-cell long" role="cell" data-length={length} title={`${shownLines(value.slice(0, 2000))}…`}>
      <button
        type="button"
        className="cell-open"
        onClick={() => onOpen('text', length)}
        aria-label={`Whole value, ${formatCount(length)} characters`}
      >
        {formatCount(length)} chars
      </button>
      {shownLines(value.slice(0, DISPLAY_CHARS))}…
    </div>
  );
}
