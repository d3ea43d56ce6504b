import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { QueryResult, SqlValue } from '../../../core/types';
import { formatBytes, hexPreview, shown, shownLines } from '../../lib/format';

const ROW_HEIGHT = 28;

/** Virtualised: only the visible rows are in the DOM, so 100k rows scroll smoothly. */
export function ResultsGrid({ result }: { result: QueryResult }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: result.rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const template = useMemo(() => columnTemplate(result), [result]);

  return (
    <div
      className="grid-scroller"
      ref={scroller}
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
                <Cell key={i} value={v} />
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
      const len = v === null ? 4 : v instanceof Uint8Array ? 28 : String(v).length;
      if (len > chars) chars = len;
    }
    return Math.round(Math.min(360, Math.max(64, chars * 7.6 + 20)));
  });
  return `56px ${widths.map((w) => `${w}px`).join(' ')}`;
}

/** Cell text is always rendered as text by React; nothing from the database becomes HTML. */
function Cell({ value }: { value: SqlValue }) {
  if (value === null)
    return (
      <div className="grid-cell null" role="cell">
        NULL
      </div>
    );
  if (value instanceof Uint8Array) {
    return (
      <div className="grid-cell blob" role="cell" title={`BLOB, ${value.length} bytes`}>
        BLOB {formatBytes(value.length)} · {hexPreview(value)}
      </div>
    );
  }
  if (typeof value === 'number' || typeof value === 'bigint')
    return (
      <div className="grid-cell num" role="cell">
        {String(value)}
      </div>
    );
  return (
    <div className="grid-cell" role="cell" title={value.length > 40 ? shownLines(value.slice(0, 2000)) : undefined}>
      {shownLines(value)}
    </div>
  );
}
