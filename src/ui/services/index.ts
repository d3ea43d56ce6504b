// Composition root: the only place the UI reaches workers and adapters. main.tsx creates the
// services once and hands them to ServicesProvider; everything else in src/ui gets them from
// there (components: useServices, actions: getServices), so tests can render with fakes.

import { createQueryClient } from './query-client';
import { RestartableEngine } from '../../worker/db-client';
import { RoutedEngine } from './routed-engine';
import { spawnBrowserDbWorker } from '../../worker/browser-spawn';
import { EmbedClient } from '../../worker/embed-client';
import { createRowsWorker } from '../../worker/rows-client';
import { createParseWorker } from '../../worker/parse-client';
import { AskControllers } from '../lib/ask-controller';
import { createGlossaryStore } from '../lib/glossary-store';
import { createRecentFiles } from '../lib/recent-files';
import { createReloadHandoff } from '../lib/reload-handoff';
import { createSavedEvaluations } from '../lib/saved-evaluations';
import { createRunHistory } from '../lib/run-history';
import { createExamplesStore } from '../lib/examples-store';
import { createChatModel } from './model-factory';
import type { RestartReason, Services } from './types';

export type { Services } from './types';

export function createServices(): Services {
  let onRestart: (reason: RestartReason) => void = () => {};
  const engine = new RoutedEngine(new RestartableEngine(spawnBrowserDbWorker, { onRestart: (r) => onRestart(r) }));
  const rows = createRowsWorker();
  return {
    engine,
    embeddings: new EmbedClient(),
    queryClient: createQueryClient(),
    recentFiles: createRecentFiles(),
    reloadHandoff: createReloadHandoff(),
    savedEvaluations: createSavedEvaluations(),
    runHistory: createRunHistory(),
    examples: createExamplesStore(),
    glossary: createGlossaryStore(),
    asks: new AskControllers(),
    createChatModel,
    // Only the small check, not WebLLM itself.
    checkWebGpu: () => import('../../adapters/webllm/webgpu').then((m) => m.webgpuAvailable()),
    // Plot comes in its own chunk, with the first chart (decision 062).
    loadCharts: () => import('../../adapters/plot/draw-chart'),
    rankColumn: (values) => rows.rankColumn(values),
    parseFiles: createParseWorker(),
    forgetKeptIndexes: () => import('../../adapters/kept-indexes/idb-store').then((m) => m.forgetKeptIndexes()),
    setRestartListener(fn) {
      onRestart = fn;
    },
  };
}
