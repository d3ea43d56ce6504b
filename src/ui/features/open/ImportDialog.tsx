// Table files waiting to be imported (issue 26): each file's table, its columns with the types
// its first rows suggest (the person may choose others), and those rows. Import reads every row
// in the database worker; a column left "as detected" gets the type every value allows.

import { useEffect, useState } from 'react';
import type { ImportType } from '../../../core/import/table-file';
import { chosenTypes, type TablePreview } from '../../../core/import/table-preview';
import { importTables } from '../../actions/open-database';
import { formatCount, shown } from '../../lib/format';
import { useApp } from '../../store/app-store';

const TYPES: Array<{ type: ImportType; label: string }> = [
  { type: 'TEXT', label: 'TEXT (kept as written)' },
  { type: 'INTEGER', label: 'INTEGER (whole numbers)' },
  { type: 'REAL', label: 'REAL (numbers)' },
];

/** Characters of a cell shown in the preview. */
const CELL_CHARS = 40;

export function ImportDialog() {
  const pending = useApp((s) => s.pendingImport);
  const close = () => useApp.getState().setPendingImport(null);
  const [choices, setChoices] = useState<Array<Array<ImportType | null>>>([]);

  useEffect(() => {
    setChoices(pending ? pending.previews.map((p) => p.columns.map(() => null)) : []);
    if (!pending) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && useApp.getState().setPendingImport(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pending]);

  if (!pending) return null;
  const { files, previews } = pending;
  const choose = (file: number, column: number, type: ImportType | null) =>
    setChoices((all) => all.map((cols, f) => (f === file ? cols.map((t, c) => (c === column ? type : t)) : cols)));

  return (
    <>
      <div className="modal-backdrop" onClick={close} />
      <div className="import-dialog" role="dialog" aria-modal="true" aria-label="Import table files">
        <h2>Import {files.length === 1 ? 'a file' : `${formatCount(files.length)} files`} as a database</h2>
        <p className="muted small">
          Each file becomes a table of a new database, read-only like any other. The types below come from the first
          rows; every row is read and checked when importing, and a column left as detected gets the type all its values
          allow.
        </p>
        <div className="import-previews">
          {previews.map((p, f) => (
            <FilePreview key={p.file} preview={p} choice={choices[f] ?? []} onChoose={(c, t) => choose(f, c, t)} />
          ))}
        </div>
        <div className="row gap">
          <button
            type="button"
            onClick={() => {
              close();
              void importTables(
                files,
                previews.map((p, f) => chosenTypes(p, choices[f] ?? [])),
              );
            }}
          >
            Import
          </button>
          <button type="button" className="secondary" onClick={close}>
            Cancel
          </button>
        </div>
      </div>
    </>
  );
}

function FilePreview({
  preview: p,
  choice,
  onChoose,
}: {
  preview: TablePreview;
  choice: ReadonlyArray<ImportType | null>;
  onChoose: (column: number, type: ImportType | null) => void;
}) {
  return (
    <section data-testid="import-preview" data-file={p.file}>
      <h3>
        {shown(p.file)} → table <code>{shown(p.table)}</code>
      </h3>
      {p.typesChosenOnImport ? (
        <p className="small">Its columns and their types are read from the whole file when importing.</p>
      ) : (
        <>
          <p className="small muted">
            {p.json
              ? 'The keys of its records name the columns.'
              : p.header
                ? 'The first row names the columns.'
                : 'No header row: the columns are named by position.'}
          </p>
          <div className="import-table">
            <table>
              <thead>
                <tr>
                  {p.columns.map((c, i) => (
                    <th key={i} scope="col">
                      <div>{shown(c.name)}</div>
                      <select
                        aria-label={`Type of ${c.name}`}
                        value={choice[i] ?? ''}
                        onChange={(e) => onChoose(i, (e.target.value || null) as ImportType | null)}
                      >
                        <option value="">As detected ({c.type})</option>
                        {TYPES.map((t) => (
                          <option key={t.type} value={t.type}>
                            {t.label}
                          </option>
                        ))}
                      </select>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {p.rows.map((r, i) => (
                  <tr key={i}>
                    {r.map((v, j) => (
                      <td key={j}>{shown(v.length > CELL_CHARS ? `${v.slice(0, CELL_CHARS)}…` : v)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
