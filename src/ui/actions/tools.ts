// The retrieval tools for the page: index building with progress (kept per database in the
// store) and single tool calls. The indexes live in the database worker.

import { describeError } from '../../core/errors';
import type { ToolCallOutcome } from '../../core/tools/registry';
import { services } from '../services';
import { useApp } from '../store/app-store';

const building = new Map<string, Promise<void>>();

export function ensureTools(dbId: string): Promise<void> {
  const existing = building.get(dbId);
  if (existing) return existing;
  const app = useApp.getState();
  app.setTools(dbId, { status: 'building', progress: null });
  const job = services.engine
    .buildTools(dbId, {}, (p) => useApp.getState().setTools(dbId, { status: 'building', progress: p }))
    .then(
      (summary) => useApp.getState().setTools(dbId, { status: 'ready', progress: null, summary }),
      (e) => {
        building.delete(dbId);
        useApp.getState().setTools(dbId, { status: 'error', progress: null, error: describeError(e) });
      },
    );
  building.set(dbId, job);
  return job;
}

export function forgetTools(dbId: string): void {
  building.delete(dbId);
}

export async function runTool(dbId: string, name: string, args: unknown): Promise<ToolCallOutcome> {
  await ensureTools(dbId);
  return services.engine.callTool(dbId, name, args);
}

export async function linkQuestion(dbId: string, question: string) {
  await ensureTools(dbId);
  return services.engine.linkQuestion(dbId, question);
}
