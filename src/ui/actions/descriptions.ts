// Changing a database's descriptions from the page: importing BIRD-style CSV files and writing a
// note on a column. Each change is shown at once, saved on this device, and given to the search
// indexes of every open tab of that file.

import { decodeText } from '../../core/descriptions/bird-csv';
import { withNote, type Glossary } from '../../core/descriptions/glossary';
import {
  applyImportPlan,
  importMessage,
  planDescriptionImport,
  type DescriptionFile,
} from '../../core/descriptions/import';
import { describeError } from '../../core/errors';
import { formatBytes } from '../lib/format';
import { fullSchema } from '../queries/schema-reading';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';
import { dbNameOf, updateGlossary } from './glossary';
import { refreshDescriptions } from './tools';

/** BIRD's description files are a few kB; anything this big is not one (and would be slow to parse). */
const MAX_CSV_BYTES = 10 * 1024 * 1024;

async function change(dbId: string, edit: (g: Glossary) => Glossary): Promise<void> {
  const name = dbNameOf(dbId);
  if (!name) return;
  await updateGlossary(name, edit);
  for (const db of useApp.getState().databases) if (db.name === name) void refreshDescriptions(db.id);
}

export async function importDescriptionFiles(dbId: string, files: File[]): Promise<void> {
  const notify = useApp.getState().notify;
  try {
    const schema = await fullSchema(getServices(), dbId);
    const readable: DescriptionFile[] = [];
    const unread: Array<{ file: string; reason: string }> = [];
    for (const f of files) {
      if (f.size > MAX_CSV_BYTES) {
        unread.push({ file: f.name, reason: `${formatBytes(f.size)} is too large for a description file` });
        continue;
      }
      try {
        // Only .csv files are read; the plan reports the others by name.
        readable.push({
          name: f.name,
          text: /\.csv$/i.test(f.name) ? decodeText(new Uint8Array(await f.arrayBuffer())) : '',
        });
      } catch (e) {
        unread.push({ file: f.name, reason: `could not be read: ${describeError(e)}` });
      }
    }
    const plan = planDescriptionImport(schema, readable);
    plan.skipped.push(...unread);
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
