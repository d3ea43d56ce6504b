// The schema of each open database, cached by react-query under ['schema', id]. It is read in
// the worker within a time budget; objects the budget left unread are listed by name and read
// later in further slices (incrementally), or one by one when the person opens them.

import { useQuery } from '@tanstack/react-query';
import { toDowserError } from '../../core/errors';
import { mergeSchema } from '../../core/schema/introspect';
import type { Schema } from '../../core/types';
import { services } from '../services';

/**
 * Reads the schema. Counting a view's rows runs the view's whole query, which can outlast the
 * time limit: then the schema is read again without view counts rather than not at all.
 */
export async function loadSchema(dbId: string): Promise<Schema> {
  try {
    return await services.engine.introspect(dbId);
  } catch (e) {
    if (toDowserError(e).code !== 'timeout') throw e;
    return services.engine.introspect(dbId, { countViews: false });
  }
}

export const schemaQuery = (dbId: string) => ({ queryKey: ['schema', dbId], queryFn: () => loadSchema(dbId) });

export function useSchema(dbId: string) {
  return useQuery(schemaQuery(dbId));
}

/** Reads skipped objects (the named ones, or all still skipped, within a new time budget) into the cached schema. */
export async function readSkipped(dbId: string, names?: readonly string[]): Promise<void> {
  const key = ['schema', dbId];
  const current = services.queryClient.getQueryData<Schema>(key);
  if (!current) return;
  const wanted = names ?? current.tables.filter((t) => t.skipped).map((t) => t.name);
  if (wanted.length === 0) return;
  const part = await services.engine.introspect(dbId, { only: wanted });
  const latest = services.queryClient.getQueryData<Schema>(key);
  if (latest) services.queryClient.setQueryData(key, mergeSchema(latest, part));
}

export function useColumnStats(dbId: string, table: string, column: string, enabled: boolean) {
  return useQuery({
    queryKey: ['stats', dbId, table, column],
    queryFn: () => services.engine.columnStats(dbId, table, column),
    enabled,
  });
}
