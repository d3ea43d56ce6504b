// A database's glossary in the page: loaded once per database name from this device, kept in
// the store for the explorer, saved back after each change. Pushing it to the search indexes
// is actions/descriptions.ts's job.

import { emptyGlossary, glossaryDescriptions, type Glossary } from '../../core/descriptions/glossary';
import type { ColumnDescriptions } from '../../core/retrieval/column-index';
import { getServices } from '../services/current';
import { useApp } from '../store/app-store';

const loading = new Map<string, Promise<Glossary>>();

export const dbNameOf = (dbId: string): string | undefined =>
  useApp.getState().databases.find((d) => d.id === dbId)?.name;

/** The glossary of a database name: from the store when known, else read from this device once. */
export function glossaryOf(dbName: string): Promise<Glossary> {
  const known = useApp.getState().glossaries[dbName];
  if (known) return Promise.resolve(known);
  let job = loading.get(dbName);
  if (!job) {
    job = getServices()
      .glossary.load(dbName)
      .then(({ glossary, problem }) => {
        if (problem) useApp.getState().notify('warning', problem);
        // What is in the page already (an edit while this was read) wins over what was stored.
        const current = useApp.getState().glossaries[dbName];
        if (!current) useApp.getState().setGlossary(dbName, glossary);
        return current ?? glossary;
      })
      .finally(() => loading.delete(dbName));
    loading.set(dbName, job);
  }
  return job;
}

/** What the search indexes of an open database should read as column descriptions. */
export async function descriptionsFor(dbId: string): Promise<ColumnDescriptions> {
  const name = dbNameOf(dbId);
  return glossaryDescriptions(name ? await glossaryOf(name) : emptyGlossary());
}

/**
 * Applies `change` to the stored glossary (never to an empty one that was not read yet), shows
 * it at once and saves it on this device; a failed save is a warning, the change stays.
 */
export async function updateGlossary(dbName: string, change: (g: Glossary) => Glossary): Promise<Glossary> {
  const loaded = await glossaryOf(dbName);
  // Read again after the wait: another change may have landed meanwhile.
  const next = change(useApp.getState().glossaries[dbName] ?? loaded);
  useApp.getState().setGlossary(dbName, next);
  const problem = await getServices().glossary.save(dbName, next);
  if (problem) useApp.getState().notify('warning', problem);
  return next;
}
