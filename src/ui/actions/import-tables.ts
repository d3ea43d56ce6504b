// Table files dropped in the page (issue 26): each previewed from its first bytes (its columns,
// their inferred types, its first rows) for the person to check and change before the import,
// which then reads every row in the database worker (actions/open-database.ts importTables).

import { describeError } from '../../core/errors';
import { PREVIEW_BYTES, previewTableFile, type TablePreview } from '../../core/import/table-preview';
import { useApp } from '../store/app-store';

export async function previewImport(files: File[]): Promise<void> {
  const previews: TablePreview[] = [];
  for (const f of files) {
    try {
      const head = new Uint8Array(await f.slice(0, PREVIEW_BYTES).arrayBuffer());
      previews.push(previewTableFile(f.name, head, f.size <= PREVIEW_BYTES));
    } catch (e) {
      useApp.getState().notify('error', `Could not read "${f.name}": ${describeError(e)}`, null);
      return;
    }
  }
  useApp.getState().setPendingImport({ files, previews });
}
