// The schema of each open database, cached by react-query under ['schema', id]. It is read in the
// worker in slices: first every object's name with the details of the first few hundred, then the
// rest in the background, slice by slice, each within a time budget, merged into the cache as they
// come. No single answer is large (10,000 tables arrived as one 8 MB message before), the worker
// stays free for queries between slices, and what the total budget leaves unread is listed and read
// on request (or when the person opens it).

import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { SchemaRequest } from '../../core/engine';
import { toDowserError } from '../../core/errors';
import { mergeSchema } from '../../core/schema/introspect';
import type { Schema } from '../../core/types';
import { services } from '../services';

/** Objects whose details one worker call reads, and the time it may take. */
const SLICE_OBJECTS = 400;
const SLICE_BUDGET_MS = 1_000;
/** Background reading stops after this long; the rest waits for "read more". */
export const TOTAL_BUDGET_MS = 20_000;

const key = (dbId: string) => ['schema', dbId];

/**
 * One slice. Counting a view's rows runs the view's whole query, which can outlast the time
 * limit: then the slice is read again without view counts rather than not at all.
 */
async function readSlice(dbId: string, request: SchemaRequest): Promise<Schema> {
  try {
    return await services.engine.introspect(dbId, request);
  } catch (e) {
    if (toDowserError(e).code !== 'timeout') throw e;
    return services.engine.introspect(dbId, { ...request, countViews: false });
  }
}

/** The first slice: every name, the first objects' details; the rest is read in the background. */
export async function loadSchema(dbId: string): Promise<Schema> {
  const first = await readSlice(dbId, { maxObjects: SLICE_OBJECTS, budgetMs: SLICE_BUDGET_MS });
  if (first.incomplete) void readSkipped(dbId).catch(() => undefined);
  return first;
}

export const schemaQuery = (dbId: string) => ({ queryKey: key(dbId), queryFn: () => loadSchema(dbId) });

export function useSchema(dbId: string) {
  return useQuery(schemaQuery(dbId));
}

const reading = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

/** True while skipped objects of this database are being read. */
export function useSchemaReading(dbId: string): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => reading.has(dbId),
  );
}

/**
 * Reads skipped objects into the cached schema: the named ones, or all still skipped, slice by
 * slice until none is left or the total budget is spent. One reading per database at a time.
 */
export function readSkipped(dbId: string, names?: readonly string[]): Promise<void> {
  const previous = reading.get(dbId) ?? Promise.resolve();
  const job = previous.then(async () => {
    // Called from the first slice's loader too: the cache holds that slice only once it resolved.
    await services.queryClient.fetchQuery(schemaQuery(dbId));
    const started = Date.now();
    for (;;) {
      const current = services.queryClient.getQueryData<Schema>(key(dbId));
      if (!current) return;
      const skipped = new Set(current.tables.filter((t) => t.skipped).map((t) => t.name));
      const todo = (names ?? [...skipped]).filter((n) => skipped.has(n)).slice(0, SLICE_OBJECTS);
      if (todo.length === 0 || Date.now() - started > TOTAL_BUDGET_MS) return;
      const part = await readSlice(dbId, { only: todo, budgetMs: SLICE_BUDGET_MS });
      const latest = services.queryClient.getQueryData<Schema>(key(dbId));
      if (!latest || part.tables.every((t) => t.skipped)) return; // gone, or nothing read: stop
      services.queryClient.setQueryData(key(dbId), mergeSchema(latest, part));
    }
  });
  const tracked = job.finally(() => {
    if (reading.get(dbId) === tracked) {
      reading.delete(dbId);
      changed();
    }
  });
  reading.set(dbId, tracked);
  changed();
  return tracked;
}

/** The schema once background reading has finished (the agent and imports need every column). */
export async function fullSchema(dbId: string): Promise<Schema> {
  const first = await services.queryClient.fetchQuery(schemaQuery(dbId));
  await reading.get(dbId)?.catch(() => undefined);
  return services.queryClient.getQueryData<Schema>(key(dbId)) ?? first;
}

export function useColumnStats(dbId: string, table: string, column: string, enabled: boolean) {
  return useQuery({
    queryKey: ['stats', dbId, table, column],
    queryFn: () => services.engine.columnStats(dbId, table, column),
    enabled,
  });
}
