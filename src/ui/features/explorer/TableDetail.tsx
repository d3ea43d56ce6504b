import { useEffect, useRef, useState } from 'react';
import { emptyGlossary, importedTextOf, noteOf } from '../../../core/descriptions/glossary';
import type { ColumnInfo, TableInfo } from '../../../core/types';
import { saveNote } from '../../actions/descriptions';
import { previewTable } from '../../actions/run-query';
import { useApp } from '../../store/app-store';
import { ColumnGlossary, NoteEditor } from './ColumnGlossary';
import { ColumnStatsView } from './ColumnStatsView';
import { useGlossary } from './use-glossary';
import { useLinkedTable } from './use-linked';
import { useRovingColumns } from './use-roving-columns';
import { shown } from '../../lib/format';

/**
 * Columns with type / PK / FK markers, descriptions and notes, statistics on demand, links to
 * referenced tables.
 */
export function TableDetail({
  dbId,
  table,
  schemaTables,
}: {
  dbId: string;
  table: TableInfo;
  schemaTables: TableInfo[];
}) {
  const [openColumn, setOpenColumn] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const glossary = useGlossary(dbId) ?? emptyGlossary();
  const linked = useLinkedTable(dbId, table.name);
  const select = useApp((s) => s.selectTable);
  const roving = useRovingColumns(table.columns.map((c) => c.name));
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, []);

  const fkFor = (c: ColumnInfo) => table.foreignKeys.find((fk) => fk.from.includes(c.name));
  const referencedBy = schemaTables.flatMap((t) =>
    t.foreignKeys.filter((fk) => fk.refTable === table.name).map((fk) => ({ fk, t })),
  );

  const preview = () => previewTable(dbId, table.name);

  return (
    <div className="table-detail" ref={ref}>
      {table.error && <p className="error small">{table.error}</p>}
      <div className="row gap">
        <button type="button" className="small" onClick={preview} disabled={!!table.error}>
          Preview rows
        </button>
        {table.withoutRowid && <span className="badge">WITHOUT ROWID</span>}
        {table.primaryKey.length > 1 && (
          <span className="badge" title="Composite primary key">
            PK ({shown(table.primaryKey.join(', '))})
          </span>
        )}
      </div>
      <ul
        className="columns"
        aria-label={shown(`Columns of ${table.name}`)}
        onKeyDown={roving.onKeyDown}
        onFocus={roving.onFocus}
      >
        {table.columns.map((c) => {
          const fk = fkFor(c);
          const isOpen = openColumn === c.name;
          const note = noteOf(glossary, table.name, c.name);
          return (
            <li
              key={c.name}
              data-column={c.name}
              className={linked?.columns.some((l) => l.column === c.name) ? 'linked' : undefined}
            >
              <div className="column-row">
                <button
                  type="button"
                  className="column-name link"
                  data-col={c.name}
                  data-slot={0}
                  tabIndex={roving.tabIndex(c.name, 0)}
                  aria-expanded={isOpen}
                  title="Show statistics"
                  onClick={() => setOpenColumn(isOpen ? null : c.name)}
                >
                  {shown(c.name)}
                </button>
                {c.pkIndex > 0 && (
                  <span
                    className="badge badge-pk"
                    title={`Primary key${table.primaryKey.length > 1 ? ` (part ${c.pkIndex})` : ''}`}
                  >
                    PK
                  </span>
                )}
                {fk && (
                  <button
                    type="button"
                    className="badge badge-fk link"
                    data-col={c.name}
                    data-slot={1}
                    tabIndex={roving.tabIndex(c.name, 1)}
                    title={shown(`References ${fk.refTable}.${fk.to[fk.from.indexOf(c.name)]}`)}
                    onClick={() => select(fk.refTable)}
                  >
                    → {shown(fk.refTable)}
                  </button>
                )}
                <span className="muted small col-type" title={`affinity ${c.affinity}`}>
                  {shown(c.declaredType) || 'no type'}
                  {c.notNull ? ' · not null' : ''}
                  {c.defaultValue != null ? ` · default ${shown(c.defaultValue)}` : ''}
                </span>
                <button
                  type="button"
                  className="link note-link"
                  data-col={c.name}
                  data-slot={2}
                  tabIndex={roving.tabIndex(c.name, 2)}
                  aria-expanded={editing === c.name}
                  title={shown(`Your note on ${c.name}: shown here and read by the column search`)}
                  onClick={() => setEditing(editing === c.name ? null : c.name)}
                >
                  {note ? 'edit note' : 'add note'}
                </button>
              </div>
              {editing === c.name && (
                <NoteEditor
                  label={shown(`Note on ${c.name}`)}
                  initial={note}
                  onCancel={() => setEditing(null)}
                  onSave={(text) => {
                    setEditing(null);
                    void saveNote(dbId, table.name, c.name, text);
                  }}
                />
              )}
              <ColumnGlossary
                note={editing === c.name ? '' : note}
                imported={importedTextOf(glossary, table.name, c.name)}
              />
              {isOpen && <ColumnStatsView dbId={dbId} table={table.name} column={c.name} />}
            </li>
          );
        })}
      </ul>
      {referencedBy.length > 0 && (
        <p className="small muted">
          Referenced by:{' '}
          {referencedBy.map(({ fk, t }, i) => (
            <span key={`${t.name}-${fk.id}`}>
              {i > 0 && ', '}
              <button type="button" className="link" onClick={() => select(t.name)}>
                {shown(`${t.name}.${fk.from.join('+')}`)}
              </button>
            </span>
          ))}
        </p>
      )}
      {table.indexes.length > 0 && (
        <p className="small muted">
          Indexes:{' '}
          {shown(
            table.indexes.map((ix) => `${ix.name} (${ix.columns.join(', ')})${ix.unique ? ' unique' : ''}`).join('; '),
          )}
        </p>
      )}
    </div>
  );
}
