// Table files waiting to be imported (issue 26): each file's table, its columns with the types
// its first rows suggest (the person may choose others), and those rows. How its first row is
// read ("column names" or "data", set from the evidence with its reason, and asked for when
// Dowser cannot tell) and its text's encoding are shown and can be changed (issue 35): the
// preview is made again, and the import uses what is shown. Import reads every row in the
// database worker; a column left "as detected" gets the type every value allows.

import { useEffect, useState } from 'react';
import { ENCODING_NAMES, encodingSentence, type TextEncoding } from '../../../core/import/imported-file';
import type { ImportType } from '../../../core/import/table-file';
import { chosenTypes, type TablePreview } from '../../../core/import/table-preview';
import { previewAgain } from '../../actions/import-tables';
import { importTables } from '../../actions/open-database';
import { formatCount, shown } from '../../lib/format';
import { useApp } from '../../store/app-store';

const TYPES: Array<{ type: ImportType; label: string }> = [
  { type: 'TEXT', label: 'TEXT (kept as written)' },
  { type: 'INTEGER', label: 'INTEGER (whole numbers)' },
  { type: 'REAL', label: 'REAL (numbers)' },
];

const ENCODINGS = Object.keys(ENCODING_NAMES) as TextEncoding[];

/** Characters of a cell shown in the preview. */
const CELL_CHARS = 40;
/** Columns drawn in a file's preview; the others are imported as detected (issue 35, item 14). */
export const PREVIEW_COLUMNS = 50;

export function ImportDialog() {
  const pending = useApp((s) => s.pendingImport);
  const close = () => useApp.getState().setPendingImport(null);
  // Each preview's chosen types: a preview made again (another first row or encoding) starts anew.
  const [choices, setChoices] = useState(() => new Map<TablePreview, Array<ImportType | null>>());

  useEffect(() => {
    if (!pending) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && useApp.getState().setPendingImport(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [pending]);

  if (!pending) return null;
  const { files, previews } = pending;
  const choiceOf = (p: TablePreview) => choices.get(p) ?? p.columns.map(() => null);
  const choose = (p: TablePreview, column: number, type: ImportType | null) =>
    setChoices((all) =>
      new Map(all).set(
        p,
        choiceOf(p).map((t, c) => (c === column ? type : t)),
      ),
    );

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
            <FilePreview
              key={`${f}:${p.file}`}
              index={f}
              preview={p}
              choice={choiceOf(p)}
              onChoose={(c, t) => choose(p, c, t)}
            />
          ))}
        </div>
        <div className="row gap">
          <button
            type="button"
            onClick={() => {
              close();
              void importTables(
                files,
                previews.map((p) => ({
                  types: chosenTypes(p, choiceOf(p)),
                  // What the preview shows is what is imported: the first row as it was read there.
                  ...(p.headerEvidence ? { header: p.header ? ('yes' as const) : ('no' as const) } : {}),
                  encoding: p.encodingChoice,
                })),
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

/** Why the first row is read as it is, in a sentence for the person. */
function headerText(p: TablePreview): string {
  const h = p.headerEvidence;
  if (!h) return '';
  if (h.choice !== 'auto')
    return p.header ? 'You chose: the first row names the columns.' : 'You chose: the first row is data.';
  if (h.verdict === 'unsure')
    return `Dowser could not tell whether the first row names the columns (${h.reason}), so it is read as data: choose.`;
  return p.header
    ? `Read as column names: ${h.reason}.`
    : `Read as data: ${h.reason}. Nothing of it becomes a column name.`;
}

function FilePreview({
  index,
  preview: p,
  choice,
  onChoose,
}: {
  index: number;
  preview: TablePreview;
  choice: ReadonlyArray<ImportType | null>;
  onChoose: (column: number, type: ImportType | null) => void;
}) {
  const [reading, setReading] = useState(false);
  const again = (options: Parameters<typeof previewAgain>[1]) => {
    setReading(true);
    void previewAgain(index, options).finally(() => setReading(false));
  };
  const columns = p.columns.slice(0, PREVIEW_COLUMNS);
  const unsure = p.headerEvidence?.choice === 'auto' && p.headerEvidence.verdict === 'unsure';
  return (
    <section data-testid="import-preview" data-file={p.file} aria-busy={reading}>
      <h3>
        {shown(p.file)} → table <code>{shown(p.table)}</code>
        {p.tableNote ? <span className="muted small"> ({p.tableNote})</span> : null}
      </h3>
      <div className="row gap small">
        {p.headerEvidence ? (
          <label>
            First row{' '}
            <select
              aria-label={`First row of ${p.file}`}
              value={p.header ? 'yes' : 'no'}
              disabled={reading}
              onChange={(e) => again({ header: e.target.value === 'yes' ? 'yes' : 'no', encoding: p.encodingChoice })}
            >
              <option value="yes">column names</option>
              <option value="no">data</option>
            </select>
          </label>
        ) : null}
        <label>
          Encoding{' '}
          <select
            aria-label={`Encoding of ${p.file}`}
            value={p.encodingChoice === 'auto' || p.encodingChoice === 'utf-16' ? p.encoding.name : p.encodingChoice}
            disabled={reading}
            onChange={(e) =>
              again({ header: p.headerEvidence?.choice ?? 'auto', encoding: e.target.value as TextEncoding })
            }
          >
            {ENCODINGS.map((e) => (
              <option key={e} value={e}>
                {ENCODING_NAMES[e]}
                {p.encodingChoice === 'auto' && p.encoding.name === e ? ' (detected)' : ''}
              </option>
            ))}
          </select>
        </label>
        {reading ? <span className="muted">Reading…</span> : null}
      </div>
      <p className={`small${p.encoding.replaced ? '' : ' muted'}`} data-testid="import-encoding">
        Text {encodingSentence(p.encoding, 'as chosen')}.
      </p>
      {p.typesChosenOnImport ? (
        <p className="small">Its columns and their types are read from the whole file when importing.</p>
      ) : (
        <>
          <p
            className={`small${unsure ? '' : ' muted'}`}
            data-testid="import-header"
            role={unsure ? 'status' : undefined}
          >
            {p.json ? 'The keys of its records name the columns.' : headerText(p)}
          </p>
          {p.columns.length > columns.length ? (
            <p className="small muted" data-testid="import-columns-cut">
              {formatCount(p.columns.length)} columns: the first {formatCount(columns.length)} are shown; the others are
              imported as detected.
            </p>
          ) : null}
          <div className="import-table">
            <table>
              <thead>
                <tr>
                  {columns.map((c, i) => (
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
                    {r.slice(0, PREVIEW_COLUMNS).map((v, j) => (
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
