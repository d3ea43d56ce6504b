// Every react-query key of the page, named once, with the query that fills it (queryOptions), so
// a fetch, a hook and an invalidation can never disagree on a key.

import { queryOptions } from '@tanstack/react-query';
import type { Services } from '../services/types';
import { queryKeys } from './keys';
import { loadSchema } from './schema-reading';

export { queryKeys } from './keys';

/** The schema's first slice; the rest is read into the same entry in the background (schema-reading.ts). */
export const schemaQuery = (s: Services, dbId: string) =>
  queryOptions({ queryKey: queryKeys.schema(dbId), queryFn: () => loadSchema(s, dbId) });

export const columnStatsQuery = (s: Services, dbId: string, table: string, column: string) =>
  queryOptions({
    queryKey: queryKeys.stats(dbId, table, column),
    queryFn: () => s.engine.columnStats(dbId, table, column),
  });

export const historyQuery = (s: Services, dbName: string) =>
  queryOptions({ queryKey: queryKeys.history(dbName), queryFn: () => s.runHistory.list(dbName) });

export const examplesQuery = (s: Services, dbName: string) =>
  queryOptions({ queryKey: queryKeys.examples(dbName), queryFn: () => s.examples.list(dbName) });

export const recentQuery = (s: Services) =>
  queryOptions({ queryKey: queryKeys.recent(), queryFn: () => s.recentFiles.list() });
