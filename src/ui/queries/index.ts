// Every react-query key of the page, named once, with the query that fills it (queryOptions), so
// a fetch, a hook and an invalidation can never disagree on a key.

import { queryOptions } from '@tanstack/react-query';
import type { Services } from '../services/types';

export const queryKeys = {
  schema: (dbId: string) => ['schema', dbId] as const,
  /** Every statistics entry of one database (for removal on close). */
  statsOf: (dbId: string) => ['stats', dbId] as const,
  stats: (dbId: string, table: string, column: string) => ['stats', dbId, table, column] as const,
  history: (dbName: string) => ['history', dbName] as const,
  examples: (dbName: string) => ['examples', dbName] as const,
  recent: () => ['recent'] as const,
  links: (dbId: string, question: string) => ['links', dbId, question] as const,
};

export const schemaQuery = (s: Services, dbId: string) =>
  queryOptions({ queryKey: queryKeys.schema(dbId), queryFn: () => s.engine.introspect(dbId) });

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
