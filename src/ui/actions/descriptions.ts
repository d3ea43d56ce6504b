// Changing a database's descriptions from the page: importing BIRD-style CSV files and writing a
// note on a column. Each change is shown at once, saved on this device, and given to the search
// indexes of every open tab of that file.

import { withNote, type Glossary } from '../../core/descriptions/glossary';
import { applyImportPlan, importMessage, namesOfSchema } from '../../core/descriptions/import';
import { describeError } from '../../core/errors';
import { DESCRIPTION_FILE_LIMIT, sizeRefusal } from '../lib/file-limits';
import { fullSchema } from '../queries/schema-reading';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { dbNameOf, updateGlossary } from './glossary';
import { refreshDescriptions } from './tools';

async function change(dbId: string, edit: (g: Glossary) => Glossary): Promise<void> {
  const name = dbNameOf(dbId);
  if (!name) return;
  await updateGlossary(name, edit);
  for (const db of useApp.getState().databases) if (db.name === name) void refreshDescriptions(db.id);
}

export async function importDescriptionFiles(dbId: string, files: File[]): Promise<void> {
  const notify = useApp.getState().notify;
  try {
    const services = getServices();
    const schema = await fullSchema(services, dbId);
    // Refused by their size before a byte is read; the others are read and parsed in a worker.
    const refused = files.flatMap((f) => {
      const reason = sizeRefusal(f, DESCRIPTION_FILE_LIMIT);
      return reason ? [{ file: f.name, reason }] : [];
    });
    const accepted = files.filter((f) => !sizeRefusal(f, DESCRIPTION_FILE_LIMIT));
    const plan = await services.parseFiles.descriptionPlan(namesOfSchema(schema), accepted);
    plan.skipped.push(...refused);
    if (plan.tables.length) await change(dbId, (g) => applyImportPlan(g, plan));
    const { level, message } = importMessage(plan);
    notify(plan.tables.length ? level : 'warning', message);
  } catch (e) {
    notify('error', `The descriptions could not be imported: ${describeError(e)}`);
  }
}

/** Sets (or, when blank, removes) the user's note on one column. */
export function saveNote(dbId: string, table: string, column: string, note: string): Promise<void> {
  return change(dbId, (g) => withNote(g, table, column, note));
}
