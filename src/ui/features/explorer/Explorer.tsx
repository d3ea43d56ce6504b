import { useMemo, useState } from 'react';
import { describeError } from '../../../core/errors';
import type { TableInfo } from '../../../core/types';
import { formatCount, shown } from '../../lib/format';
import { useApp } from '../../store/app-store';
import { DatabaseInfo } from './DatabaseInfo';
import { ImportDescriptions } from './ImportDescriptions';
import { TableDetail } from './TableDetail';
import { useSchema } from '../../queries/hooks';

/** Table list with row counts and a filter; the selected table expands in place. */
export function Explorer({ dbId }: { dbId: string }) {
  const schema = useSchema(dbId);
  const [filter, setFilter] = useState('');
  const selected = useApp((s) => s.selectedTable);
  const select = useApp((s) => s.selectTable);

  const tables = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const all = schema.data?.tables ?? [];
    if (!f) return all;
    // A table matches by its name or any column name, so "email" finds the table holding it.
    return all.filter(
      (t) => t.name.toLowerCase().includes(f) || t.columns.some((c) => c.name.toLowerCase().includes(f)),
    );
  }, [schema.data, filter]);

  if (schema.isPending) return <p className="muted pad">Reading the schema…</p>;
  if (schema.isError) return <p className="error pad">The schema could not be read: {describeError(schema.error)}</p>;

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
      {schema.data.tables.length === 0 && <p className="muted pad">This database has no tables.</p>}
      <ul className="table-list">
        {tables.map((t) => (
          <li key={t.name} className={selected === t.name ? 'selected' : ''} data-table={t.name}>
            <button
              type="button"
              className="table-item"
              aria-expanded={selected === t.name}
              onClick={() => select(selected === t.name ? null : t.name)}
            >
              <span className={`kind kind-${t.kind}`} title={t.kind}>
                {t.kind === 'view' ? 'V' : t.kind === 'virtual' ? 'VT' : 'T'}
              </span>
              <span className="table-name">{shown(t.name)}</span>
              <span className="muted small">{t.error ? 'unreadable' : formatCount(t.rowCount)}</span>
            </button>
            {selected === t.name && <TableDetail dbId={dbId} table={t} schemaTables={schema.data.tables} />}
          </li>
        ))}
      </ul>
      {filter && tables.length === 0 && <p className="muted pad">Nothing matches “{filter}”.</p>}
    </div>
  );
}

function countLabel(tables: TableInfo[]): string {
  const n = tables.filter((t) => t.kind !== 'view').length;
  const v = tables.length - n;
  return `${n} table${n === 1 ? '' : 's'}${v ? `, ${v} view${v === 1 ? '' : 's'}` : ''}`;
}
