// A database made from CSV, TSV or JSON files saved as a SQLite file (issue 26): the import is
// kept, to open again later (here or in any SQLite tool) without importing the files again.

import { describeError } from '../../core/errors';
import { baseName, downloadText } from '../lib/download';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';

export async function saveImportedDatabase(dbId: string): Promise<void> {
  const db = useApp.getState().databases.find((d) => d.id === dbId);
  if (!db) return;
  try {
    const bytes = await getServices().engine.exportImported(dbId);
    downloadText(`${baseName(db.name)}.sqlite`, bytes as Uint8Array<ArrayBuffer>, 'application/vnd.sqlite3');
  } catch (e) {
    useApp.getState().notify('error', `Saving ${db.name} as a SQLite file failed: ${describeError(e)}`, dbId);
  }
}
