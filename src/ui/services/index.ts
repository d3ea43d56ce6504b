// Composition root: the only place the UI reaches workers and adapters. Everything else in
// src/ui gets these through `services` (tests could swap them here).

import { QueryClient } from '@tanstack/react-query';
import { RestartableEngine, type RestartReason } from '../../worker/db-client';
import { spawnBrowserDbWorker } from '../../worker/browser-spawn';
import { EmbedClient } from '../../worker/embed-client';
import { createGlossaryStore } from '../lib/glossary-store';
import { createRecentFiles } from '../lib/recent-files';
import { createRunHistory } from '../lib/run-history';
import { createExamplesStore } from '../lib/examples-store';

export function createServices() {
  let onRestart: (reason: RestartReason) => void = () => {};
  const engine = new RestartableEngine(spawnBrowserDbWorker, { onRestart: (r) => onRestart(r) });
  return {
    engine,
    embeddings: new EmbedClient(),
    queryClient: new QueryClient({
      defaultOptions: { queries: { staleTime: Infinity, retry: false, refetchOnWindowFocus: false } },
    }),
    recentFiles: createRecentFiles(),
    runHistory: createRunHistory(),
    examples: createExamplesStore(),
    glossary: createGlossaryStore(),
    setRestartListener(fn: typeof onRestart) {
      onRestart = fn;
    },
  };
}

export type Services = ReturnType<typeof createServices>;
export type { RestartReason };

export const services: Services = createServices();
