// The schema is read in slices: first every object's name with the details of the first few
// hundred (schemaQuery), then the rest in the background, slice by slice, each within a time
// budget, merged into the same cache entry as they come. No single answer is large (10,000 tables
// arrived as one 8 MB message before), the worker stays free for queries between slices, and what
// the total budget leaves unread is listed and read on request (or when the person opens it).

import { useSyncExternalStore } from 'react';
import type { SchemaRequest } from '../../core/engine';
import { toDowserError } from '../../core/errors';
import { mergeSchema } from '../../core/schema/introspect';
import type { Schema } from '../../core/types';
import type { Services } from '../services/types';
import { queryKeys } from './keys';

/** Objects whose details one worker call reads, and the time it may take. */
const SLICE_OBJECTS = 400;
const SLICE_BUDGET_MS = 1_000;
/** Background reading stops after this long; the rest waits for "read more". */
export const TOTAL_BUDGET_MS = 20_000;

/**
 * One slice. Counting a view's rows runs the view's whole query, which can outlast the time
 * limit: then the slice is read again without view counts rather than not at all.
 */
async function readSlice(s: Services, dbId: string, request: SchemaRequest): Promise<Schema> {
  try {
    return await s.engine.introspect(dbId, request);
  } catch (e) {
    if (toDowserError(e).code !== 'timeout') throw e;
    return s.engine.introspect(dbId, { ...request, countViews: false });
  }
}

/** The first slice (schemaQuery's loader); the rest is read in the background. */
export async function loadSchema(s: Services, dbId: string): Promise<Schema> {
  const first = await readSlice(s, dbId, { maxObjects: SLICE_OBJECTS, budgetMs: SLICE_BUDGET_MS });
  if (first.incomplete) void readSkipped(s, dbId).catch(() => undefined);
  return first;
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
export function readSkipped(s: Services, dbId: string, names?: readonly string[]): Promise<void> {
  const key = queryKeys.schema(dbId);
  const previous = reading.get(dbId) ?? Promise.resolve();
  const job = previous.then(async () => {
    // Called from the first slice's loader too: the cache holds that slice once it resolved.
    await s.queryClient.fetchQuery({ queryKey: key, queryFn: () => loadSchema(s, dbId) });
    const started = Date.now();
    for (;;) {
      const current = s.queryClient.getQueryData<Schema>(key);
      if (!current) return;
      const skipped = new Set(current.tables.filter((t) => t.skipped).map((t) => t.name));
      const todo = (names ?? [...skipped]).filter((n) => skipped.has(n)).slice(0, SLICE_OBJECTS);
      if (todo.length === 0 || Date.now() - started > TOTAL_BUDGET_MS) return;
      const part = await readSlice(s, dbId, { only: todo, budgetMs: SLICE_BUDGET_MS });
      const latest = s.queryClient.getQueryData<Schema>(key);
      if (!latest || part.tables.every((t) => t.skipped)) return; // gone, or nothing read: stop
      s.queryClient.setQueryData(key, mergeSchema(latest, part));
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
export async function fullSchema(s: Services, dbId: string): Promise<Schema> {
  const key = queryKeys.schema(dbId);
  const first = await s.queryClient.fetchQuery({ queryKey: key, queryFn: () => loadSchema(s, dbId) });
  await reading.get(dbId)?.catch(() => undefined);
  return s.queryClient.getQueryData<Schema>(key) ?? first;
}
