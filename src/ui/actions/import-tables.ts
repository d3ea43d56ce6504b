// Table files dropped in the page (issue 26): each previewed from its first bytes (its columns,
// their inferred types, its first rows, how its first row and its text were read) for the person
// to check and change before the import, which then reads every row in the database worker
// (actions/open-database.ts importTables). The previews are made in the parse worker (issue 35,
// item 14: a 100,000-column file took the page's thread for seconds); a file SQLite could not
// hold as a table is refused there, before anything of it is drawn.

import { describeError } from '../../core/errors';
import type { PreviewOptions, TablePreview } from '../../core/import/table-preview';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';

export async function previewImport(files: File[]): Promise<void> {
  const kept: File[] = [];
  const previews: TablePreview[] = [];
  for (const f of files) {
    try {
      previews.push(await getServices().parseFiles.tablePreview(f, {}));
      kept.push(f);
    } catch (e) {
      useApp.getState().notify('error', `Could not import "${f.name}": ${describeError(e)}`, null);
    }
  }
  if (kept.length) useApp.getState().setPendingImport({ files: kept, previews });
}

/**
 * The preview of the `index`th pending file made again with another first-row or encoding
 * choice; the dialog shows it (and imports with it) once it is made. False when it could not be.
 */
export async function previewAgain(index: number, options: PreviewOptions): Promise<boolean> {
  const pending = useApp.getState().pendingImport;
  const file = pending?.files[index];
  if (!pending || !file) return false;
  let preview: TablePreview;
  try {
    preview = await getServices().parseFiles.tablePreview(file, options);
  } catch (e) {
    useApp.getState().notify('error', `Could not read "${file.name}" that way: ${describeError(e)}`, null);
    return false;
  }
  // The dialog may have closed, or shown other files, meanwhile.
  const now = useApp.getState().pendingImport;
  if (now?.files[index] !== file) return false;
  useApp.getState().setPendingImport({ ...now, previews: now.previews.map((p, i) => (i === index ? preview : p)) });
  return true;
}
