import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { describeError } from '../../../core/errors';
import type { Schema, TableInfo } from '../../../core/types';
import { formatCount, shown } from '../../lib/format';
import { useApp } from '../../store/app-store';
import { DatabaseInfo } from './DatabaseInfo';
import { ImportDescriptions } from './ImportDescriptions';
import { TableDetail } from './TableDetail';
import { useSchema } from '../../queries/hooks';
import { readSkipped, TOTAL_BUDGET_MS, useSchemaReading } from '../../queries/schema-reading';
import { useServices } from '../../services/context';
import { useLinkedTable } from './use-linked';
import { useRovingTables } from './use-roving-tables';

/** Above this many tables only the visible rows are in the DOM (10,000 tables rendered at once froze the page). */
const VIRTUAL_ABOVE = 300;
const ROW_HEIGHT = 28;

/** Table list with row counts and a filter; the selected table expands in place. */
export function Explorer({ dbId }: { dbId: string }) {
  const schema = useSchema(dbId);
  const services = useServices();
  const [filter, setFilter] = useState('');
  const selected = useApp((s) => s.selectedTable);

  const tables = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const all = schema.data?.tables ?? [];
    if (!f) return all;
    // A table matches by its name or any column name, so "email" finds the table holding it.
    return all.filter(
      (t) => t.name.toLowerCase().includes(f) || t.columns.some((c) => c.name.toLowerCase().includes(f)),
    );
  }, [schema.data, filter]);

  // A table the time budget skipped is read on its own when opened.
  const selectedSkipped = schema.data?.tables.some((t) => t.name === selected && t.skipped);
  useEffect(() => {
    if (selected && selectedSkipped) void readSkipped(services, dbId, [selected]).catch(() => undefined);
  }, [services, dbId, selected, selectedSkipped]);

  if (schema.isPending) return <p className="muted pad">Reading the schema…</p>;
  if (schema.isError)
    return (
      <div className="pad" role="alert">
        <p className="error">The schema could not be read: {describeError(schema.error)}</p>
        <button type="button" onClick={() => void schema.refetch()} disabled={schema.isFetching}>
          {schema.isFetching ? 'Reading again…' : 'Try again'}
        </button>
      </div>
    );

  return (
    <div className="explorer">
      <DatabaseInfo dbId={dbId} />
      <input
        type="search"
        className="filter"
        placeholder="Filter tables and columns"
        aria-label="Filter tables and columns"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <div className="explorer-bar">
        <span className="muted small">{countLabel(schema.data.tables)}</span>
        <ImportDescriptions dbId={dbId} />
      </div>
      {schema.data.incomplete && <SkippedNote dbId={dbId} schema={schema.data} />}
      {schema.data.tables.length === 0 && <p className="muted pad">This database has no tables.</p>}
      {tables.length > VIRTUAL_ABOVE ? (
        <VirtualTableList dbId={dbId} tables={tables} schemaTables={schema.data.tables} />
      ) : (
        <PlainTableList dbId={dbId} tables={tables} schemaTables={schema.data.tables} />
      )}
      {filter && tables.length === 0 && <p className="muted pad">Nothing matches “{filter}”.</p>}
    </div>
  );
}

interface TableListProps {
  dbId: string;
  tables: TableInfo[];
  schemaTables: TableInfo[];
}

/** Arrow keys move between tables; Tab leaves the list (one Tab stop). */
const LIST_HINT = 'Tables: arrow keys move between tables, Enter opens one';

function PlainTableList({ dbId, tables, schemaTables }: TableListProps) {
  const selected = useApp((s) => s.selectedTable);
  const roving = useRovingTables(tables, selected);
  return (
    <ul
      className="table-list"
      ref={roving.list}
      aria-label={LIST_HINT}
      onKeyDown={roving.onKeyDown}
      onFocus={roving.onFocus}
    >
      {tables.map((t) => (
        <TableRow key={t.name} dbId={dbId} table={t} schemaTables={schemaTables} tabbable={t.name === roving.active} />
      ))}
    </ul>
  );
}

function TableRow({
  dbId,
  table: t,
  schemaTables,
  tabbable,
  ...measure
}: {
  dbId: string;
  table: TableInfo;
  schemaTables: TableInfo[];
  tabbable: boolean;
  style?: React.CSSProperties;
  'data-index'?: number;
  ref?: React.Ref<HTMLLIElement>;
}) {
  const selected = useApp((s) => s.selectedTable);
  const select = useApp((s) => s.selectTable);
  const linked = useLinkedTable(dbId, t.name);
  return (
    <li
      className={[selected === t.name ? 'selected' : '', linked ? 'linked' : ''].join(' ').trim()}
      data-table={t.name}
      {...measure}
    >
      <button
        type="button"
        className="table-item"
        tabIndex={tabbable ? 0 : -1}
        aria-expanded={selected === t.name}
        onClick={() => select(selected === t.name ? null : t.name)}
      >
        <span className={`kind kind-${t.kind}`} title={t.kind}>
          {t.kind === 'view' ? 'V' : t.kind === 'virtual' ? 'VT' : 'T'}
        </span>
        <span className="table-name">{shown(t.name)}</span>
        {linked && (
          <span className="badge linked-badge" title="Link: the question likely needs this table">
            linked
          </span>
        )}
        <span className="muted small">
          {t.skipped
            ? 'not read yet'
            : t.error
              ? 'unreadable'
              : `${t.rowCountEstimated ? '≈ ' : ''}${formatCount(t.rowCount)}`}
        </span>
      </button>
      {selected === t.name &&
        (t.skipped ? (
          <p className="muted small pad">Reading its columns…</p>
        ) : (
          <TableDetail dbId={dbId} table={t} schemaTables={schemaTables} />
        ))}
    </li>
  );
}

/** Only the visible rows in the DOM; row heights are measured (an opened table is taller). */
function VirtualTableList({ dbId, tables, schemaTables }: TableListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const selected = useApp((s) => s.selectedTable);
  const virtual = useVirtualizer({
    count: tables.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => tables[i].name,
  });
  const roving = useRovingTables(tables, selected, (index) => virtual.scrollToIndex(index, { align: 'auto' }));
  // A table selected elsewhere (a foreign-key link) scrolls into view.
  useEffect(() => {
    const index = selected === null ? -1 : tables.findIndex((t) => t.name === selected);
    if (index >= 0) virtual.scrollToIndex(index, { align: 'auto' });
  }, [selected, tables, virtual]);
  const items = virtual.getVirtualItems();
  // The tabbable row scrolled out of the DOM: the first row drawn takes the Tab stop.
  const tabbable = items.some((i) => tables[i.index].name === roving.active)
    ? roving.active
    : (tables[items[0]?.index ?? 0]?.name ?? null);

  return (
    <div className="virtual-table-list" ref={scroller}>
      <ul
        className="table-list"
        ref={roving.list}
        aria-label={LIST_HINT}
        onKeyDown={roving.onKeyDown}
        onFocus={roving.onFocus}
        style={{ height: virtual.getTotalSize(), position: 'relative' }}
      >
        {items.map((item) => (
          <TableRow
            key={item.key}
            dbId={dbId}
            table={tables[item.index]}
            schemaTables={schemaTables}
            tabbable={tables[item.index].name === tabbable}
            data-index={item.index}
            ref={virtual.measureElement}
            style={{ position: 'absolute', left: 0, right: 0, transform: `translateY(${item.start}px)` }}
          />
        ))}
      </ul>
    </div>
  );
}

function SkippedNote({ dbId, schema }: { dbId: string; schema: Schema }) {
  const reading = useSchemaReading(dbId);
  const services = useServices();
  const [problem, setProblem] = useState<string | null>(null);
  const { skipped } = schema.incomplete!;
  const objects = `${formatCount(skipped)} object${skipped === 1 ? '' : 's'}`;
  const more = () => {
    setProblem(null);
    readSkipped(services, dbId).catch((e) => setProblem(describeError(e)));
  };
  return (
    <p className="skipped-note small pad" data-testid="schema-skipped">
      {reading ? (
        `Reading the columns of ${objects} more…`
      ) : (
        <>
          Columns of {objects} not read yet: reading stops after {TOTAL_BUDGET_MS / 1000} s so the page stays usable.
          Open one to read it, or{' '}
          <button type="button" className="small" onClick={more}>
            read more
          </button>
        </>
      )}
      {problem && <span className="error"> {problem}</span>}
    </p>
  );
}

function countLabel(tables: TableInfo[]): string {
  const n = tables.filter((t) => t.kind !== 'view').length;
  const v = tables.length - n;
  return `${n} table${n === 1 ? '' : 's'}${v ? `, ${v} view${v === 1 ? '' : 's'}` : ''}`;
}
